package dev.idgen.samples;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.idgen.spring.IdgenId;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.PrePersist;
import jakarta.persistence.Table;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * An order, the sample's one entity. Its ID comes from idgen's {@code orders} sequence: {@link IdgenId} makes
 * Hibernate take it from {@code ids.nextId("orders")} before the insert (no database sequence or auto-increment) and
 * makes Jackson write it as a JSON string, since JavaScript's numbers cannot hold every 64-bit long.
 */
@Entity
// Prefixed: the sample's ddl-auto=update may point at a shared database, where a plain 'orders' could be someone's.
@Table(name = "idgen_sample_orders")
@JsonPropertyOrder({"id", "customer", "amount", "createdAt"})
public class Order {

    /** Bounds {@link #getCustomer()}, in UTF-16 units, which never exceed the column's characters. */
    static final int CUSTOMER_MAX_LENGTH = 100;

    /** Digits of {@link #getAmount()} in all, of them {@link #AMOUNT_SCALE} after the point. */
    static final int AMOUNT_PRECISION = 12;

    static final int AMOUNT_SCALE = 2;

    @Id
    @IdgenId("orders")
    private Long id;

    @Column(nullable = false, length = CUSTOMER_MAX_LENGTH)
    private String customer;

    @Column(nullable = false, precision = AMOUNT_PRECISION, scale = AMOUNT_SCALE)
    private BigDecimal amount;

    @Column(nullable = false)
    private Instant createdAt;

    /** For Hibernate. */
    protected Order() {}

    Order(String customer, BigDecimal amount) {
        this.customer = customer;
        this.amount = amount;
    }

    @PrePersist
    void created() {
        // Microseconds: what the database keeps (timestamp(6)), so a read back equals the answer to the create.
        createdAt = Instant.now().truncatedTo(ChronoUnit.MICROS);
    }

    /** @return the ID from idgen's {@code orders} sequence, {@code null} until the order is persisted */
    public Long getId() {
        return id;
    }

    /** @return who placed the order: not blank, at most {@value #CUSTOMER_MAX_LENGTH} characters */
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
