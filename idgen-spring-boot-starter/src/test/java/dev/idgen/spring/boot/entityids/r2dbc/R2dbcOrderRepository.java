package dev.idgen.spring.boot.entityids.r2dbc;

import org.springframework.data.repository.reactive.ReactiveCrudRepository;

public interface R2dbcOrderRepository extends ReactiveCrudRepository<R2dbcOrder, Long> {}
