package dev.idgen.samples;

import dev.idgen.core.InvalidArgumentException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.function.BiFunction;

/**
 * The body of {@code POST /orders}: {@code {"customer": "...", "amount": 12.5}}. The server assigns {@code id} and
 * {@code createdAt}; a body that sets either is refused rather than silently ignored, so a client that meant to choose
 * the ID learns that it cannot.
 *
 * @param customer who places the order: not blank, at most {@value Order#CUSTOMER_MAX_LENGTH} characters, trimmed
 * @param amount positive, at most two decimal places, below 10,000,000,000
 * @param id must be absent (or {@code null})
 * @param createdAt must be absent (or {@code null})
 */
record OrderRequest(String customer, BigDecimal amount, Object id, Object createdAt) {

    private static final BigDecimal AMOUNT_LIMIT = BigDecimal.TEN.pow(Order.AMOUNT_PRECISION - Order.AMOUNT_SCALE);

    /**
     * @return a new order, not yet persisted
     * @throws InvalidArgumentException naming the first field that breaks its rule
     */
    Order toOrder() {
        return checked(Order::new);
    }

    /**
     * @return a new order for Spring Data R2DBC (the {@code r2dbc} profile), not yet saved, by the same rules
     * @throws InvalidArgumentException naming the first field that breaks its rule
     */
    R2dbcOrder toR2dbcOrder() {
        return checked(R2dbcOrder::new);
    }

    /** One set of rules for both kinds of order: the customer trimmed, the amount with two decimal places. */
    private <T> T checked(BiFunction<String, BigDecimal, T> order) {
        if (id != null) {
            throw new InvalidArgumentException("id", id, "id is assigned by the server: leave it out of the body");
        }
        if (createdAt != null) {
            throw new InvalidArgumentException(
                    "createdAt", createdAt, "createdAt is set by the server: leave it out of the body");
        }
        String name = customer == null ? null : customer.strip();
        if (name == null || name.isEmpty()) {
            throw new InvalidArgumentException("customer", customer, "customer is required and must not be blank");
        }
        if (name.length() > Order.CUSTOMER_MAX_LENGTH) {
            throw new InvalidArgumentException(
                    "customer",
                    customer,
                    "customer must be at most " + Order.CUSTOMER_MAX_LENGTH + " characters, but had " + name.length());
        }
        if (amount == null) {
            throw new InvalidArgumentException("amount", null, "amount is required: a positive decimal number");
        }
        if (amount.signum() <= 0) {
            throw new InvalidArgumentException("amount", amount, "amount must be positive, but was " + shown(amount));
        }
        if (amount.stripTrailingZeros().scale() > Order.AMOUNT_SCALE) {
            // Checked before the limit: a tiny amount like 1e-400 would print 400 digits in toPlainString().
            throw new InvalidArgumentException(
                    "amount",
                    amount,
                    "amount must have at most " + Order.AMOUNT_SCALE + " decimal places, but was " + shown(amount));
        }
        if (amount.compareTo(AMOUNT_LIMIT) >= 0) {
            throw new InvalidArgumentException(
                    "amount",
                    amount,
                    "amount must be below " + AMOUNT_LIMIT.toPlainString() + ", but was " + shown(amount));
        }
        return order.apply(name, amount.setScale(Order.AMOUNT_SCALE, RoundingMode.UNNECESSARY));
    }

    /** Plain digits unless that would be long: 1e1000000 need not come back as a million zeros. */
    private static String shown(BigDecimal value) {
        return value.precision() - value.scale() > 40 || value.scale() > 40 ? value.toString() : value.toPlainString();
    }
}
