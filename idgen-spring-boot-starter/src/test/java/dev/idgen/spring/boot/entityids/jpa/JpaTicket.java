package dev.idgen.spring.boot.entityids.jpa;

import dev.idgen.spring.IdgenId;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** An entity with a {@code String} ID: the {@code ticketno} generator's canonical string. */
@Entity
@Table(name = "idgen_ejpa_ticket")
public class JpaTicket {

    @Id
    @IdgenId("ticketno")
    private String id;

    private String title;

    protected JpaTicket() {}

    public JpaTicket(String id, String title) {
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
