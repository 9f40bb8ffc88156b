package dev.idgen.spring.boot.entityids.jpabad;

import dev.idgen.spring.IdgenId;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** An {@code int} cannot hold a 64-bit ID: the EntityManagerFactory must not start. */
@Entity
@Table(name = "idgen_ejpa_bad")
public class JpaIntIdEntity {

    @Id
    @IdgenId("order")
    private int id;
}
