package dev.idgen.spring.boot.entityids.mybatis;

import dev.idgen.spring.IdgenId;

/** A row with a {@code String} ID: the {@code ticketno} generator's canonical string. */
public class MyBatisTicket {

    @IdgenId("ticketno")
    private String id;

    private String title;

    public MyBatisTicket(String id, String title) {
        this.id = id;
        this.title = title;
    }

    public String getId() {
        return id;
    }

    public String getTitle() {
        return title;
    }
}
