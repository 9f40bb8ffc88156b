package dev.idgen.spring.boot.entityids.jpa;

import dev.idgen.spring.IdgenId;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** An entity with a {@code Long} ID from the default generator (name {@code order}). */
@Entity
@Table(name = "idgen_ejpa_order")
public class JpaOrder {

    @Id
    @IdgenId("order")
    private Long id;

    private String item;

    protected JpaOrder() {}

    public JpaOrder(Long id, String item) {
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
