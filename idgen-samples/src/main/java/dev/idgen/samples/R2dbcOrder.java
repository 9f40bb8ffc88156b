package dev.idgen.samples;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.idgen.spring.IdgenId;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.springframework.data.annotation.Id;
import org.springframework.data.annotation.PersistenceCreator;
import org.springframework.data.relational.core.mapping.Table;

/**
 * An {@link Order} as Spring Data R2DBC keeps it (the {@code r2dbc} profile), with the same table, columns and JSON.
 * A class of its own because the JPA {@link Order} carries Hibernate's annotations and {@code @PrePersist}; here
 * {@link IdgenId} is read by the starter's reactive {@code BeforeConvertCallback}, which fills the ID from
 * {@code ReactiveIdService.nextId("orders")} before the insert without blocking the event loop.
 */
// Upper case: Spring Data R2DBC quotes names, a given one as written and a derived one (the columns) in the H2
// dialect's upper case, which is how H2 keeps the unquoted names of the table script (r2dbc/orders-schema.sql).
@Table("IDGEN_SAMPLE_ORDERS")
@JsonPropertyOrder({"id", "customer", "amount", "createdAt"})
public final class R2dbcOrder {

    @Id
    @IdgenId("orders")
    private Long id;

    private final String customer;

    private final BigDecimal amount;

    private final Instant createdAt;

    /** A new order, created now. */
    R2dbcOrder(String customer, BigDecimal amount) {
        // Microseconds: what the column keeps (timestamp(6)), so a read back equals the answer to the create.
        this(null, customer, amount, Instant.now().truncatedTo(ChronoUnit.MICROS));
    }

    /** For Spring Data, reading a row. */
    @PersistenceCreator
    R2dbcOrder(Long id, String customer, BigDecimal amount, Instant createdAt) {
        this.id = id;
        this.customer = customer;
        this.amount = amount;
        this.createdAt = createdAt;
    }

    /** @return the ID from idgen's {@code orders} sequence, {@code null} until the order is saved */
    public Long getId() {
        return id;
    }

    /** @return who placed the order: not blank, at most {@value Order#CUSTOMER_MAX_LENGTH} characters */
    public String getCustomer() {
        return customer;
    }

    /** @return the amount, positive, with two decimal places */
    public BigDecimal getAmount() {
        return amount;
    }

    /** @return when the order was created, to the microsecond */
    public Instant getCreatedAt() {
        return createdAt;
    }
}
