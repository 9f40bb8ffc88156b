package dev.idgen.spring.boot.entityids.mybatis;

import dev.idgen.spring.IdgenId;

/** A row with a {@code Long} ID from the default generator. */
public class MyBatisOrder {

    @IdgenId("order")
    private Long id;

    private String item;

    public MyBatisOrder(Long id, String item) {
        this.id = id;
        this.item = item;
    }

    public Long getId() {
        return id;
    }

    public String getItem() {
        return item;
    }
}
