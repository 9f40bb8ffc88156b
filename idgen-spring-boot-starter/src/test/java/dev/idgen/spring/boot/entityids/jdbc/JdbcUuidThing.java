package dev.idgen.spring.boot.entityids.jdbc;

import dev.idgen.spring.IdgenId;
import java.util.UUID;
import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.Table;

/** A UUID field cannot take a 64-bit ID or a form's string: saving it fails before any SQL. */
@Table("idgen_ejdbc_uuid")
public class JdbcUuidThing {

    @Id
    @IdgenId("order")
    private UUID id;
}
