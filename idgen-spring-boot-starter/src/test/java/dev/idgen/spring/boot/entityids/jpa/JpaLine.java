package dev.idgen.spring.boot.entityids.jpa;

import dev.idgen.spring.IdgenId;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** An entity with a primitive {@code long} ID, annotated on its getter (property access): 0 means unset. */
@Entity
@Table(name = "idgen_ejpa_line")
public class JpaLine {

    private long id;

    private int quantity;

    protected JpaLine() {}

    public JpaLine(long id, int quantity) {
        this.id = id;
        this.quantity = quantity;
    }

    @Id
    @IdgenId("line")
    public long getId() {
        return id;
    }

    public void setId(long id) {
        this.id = id;
    }

    public int getQuantity() {
        return quantity;
    }

    public void setQuantity(int quantity) {
        this.quantity = quantity;
    }
}
