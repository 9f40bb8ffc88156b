package dev.idgen.spring.boot.entityids.jdbc;

import dev.idgen.spring.IdgenId;
import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.Table;

/** An immutable aggregate (a record) with a {@code String} ID: saving it returns a copy that has the ID. */
@Table("idgen_ejdbc_ticket")
public record JdbcTicket(@Id @IdgenId("ticketno") String id, String title) {}
