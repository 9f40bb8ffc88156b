package dev.idgen.spring.boot.r2dbcentityids;

import dev.idgen.spring.IdgenId;
import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.Table;

/** A mutable entity with a {@code Long} ID. */
@Table("idgen_er2_order")
public class R2dbcOrder {

    @Id
    @IdgenId("orders")
    private Long id;

    private String item;

    public R2dbcOrder() {}

    public R2dbcOrder(Long id, String item) {
        this.id = id;
        this.item = item;
    }

    public Long getId() {
        return id;
    }

    public void setId(Long id) {
        this.id = id;
    }

    public String getItem() {
        return item;
    }

    public void setItem(String item) {
        this.item = item;
    }
}
