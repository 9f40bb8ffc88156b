package dev.idgen.spring.boot.entityids.jdbc;

import dev.idgen.spring.IdgenId;
import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.Table;

/** An aggregate with a primitive {@code long} ID: 0 means unset. */
@Table("idgen_ejdbc_line")
public class JdbcLine {

    @Id
    @IdgenId("line")
    private long id;

    private int quantity;

    public JdbcLine(long id, int quantity) {
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
