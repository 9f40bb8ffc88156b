package dev.idgen.spring.boot.entityids.jdbc;

import dev.idgen.spring.IdgenId;
import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.Table;

/** A mutable aggregate with a {@code Long} ID from the default generator. */
@Table("idgen_ejdbc_order")
public class JdbcOrder {

    @Id
    @IdgenId("order")
    private Long id;

    private String item;

    public JdbcOrder(Long id, String item) {
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
