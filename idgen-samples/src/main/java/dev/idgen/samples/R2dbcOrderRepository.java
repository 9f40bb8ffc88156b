package dev.idgen.samples;

import org.springframework.data.r2dbc.repository.R2dbcRepository;

/**
 * The orders of the {@code r2dbc} profile, by their idgen ID. An {@link R2dbcRepository}, not a plain reactive one,
 * so that Spring Data's strict mode (JPA and Redis are on the class path too) gives it to R2DBC alone, as
 * {@link OrderRepository}, a {@code JpaRepository}, goes to JPA alone.
 */
interface R2dbcOrderRepository extends R2dbcRepository<R2dbcOrder, Long> {}
