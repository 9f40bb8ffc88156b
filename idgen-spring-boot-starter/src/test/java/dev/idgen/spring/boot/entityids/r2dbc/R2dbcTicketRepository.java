package dev.idgen.spring.boot.entityids.r2dbc;

import org.springframework.data.repository.reactive.ReactiveCrudRepository;

public interface R2dbcTicketRepository extends ReactiveCrudRepository<R2dbcTicket, String> {}
