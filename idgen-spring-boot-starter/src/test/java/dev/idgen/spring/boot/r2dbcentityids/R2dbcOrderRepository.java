package dev.idgen.spring.boot.r2dbcentityids;

import org.springframework.data.repository.reactive.ReactiveCrudRepository;

public interface R2dbcOrderRepository extends ReactiveCrudRepository<R2dbcOrder, Long> {}
