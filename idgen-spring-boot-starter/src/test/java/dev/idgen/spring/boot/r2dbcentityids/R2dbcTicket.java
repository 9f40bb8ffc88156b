package dev.idgen.spring.boot.r2dbcentityids;

import dev.idgen.spring.IdgenId;
import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.Table;

/** An immutable entity (a record) with a {@code String} ID: saving it returns a copy that has the ID. */
@Table("idgen_er2_ticket")
public record R2dbcTicket(@Id @IdgenId("ticketno") String id, String title) {}
