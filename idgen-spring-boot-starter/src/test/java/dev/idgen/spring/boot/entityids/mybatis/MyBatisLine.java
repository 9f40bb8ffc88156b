package dev.idgen.spring.boot.entityids.mybatis;

import dev.idgen.spring.IdgenId;

/** A row with a primitive {@code long} ID: 0 means unset. */
public class MyBatisLine {

    @IdgenId("line")
    private long id;

    private int quantity;

    public MyBatisLine(long id, int quantity) {
        this.id = id;
        this.quantity = quantity;
    }

    public long getId() {
        return id;
    }

    public int getQuantity() {
        return quantity;
    }
}
