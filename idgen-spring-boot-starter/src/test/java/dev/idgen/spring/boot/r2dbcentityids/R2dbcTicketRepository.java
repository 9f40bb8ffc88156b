package dev.idgen.spring.boot.r2dbcentityids;

import org.springframework.data.repository.reactive.ReactiveCrudRepository;

public interface R2dbcTicketRepository extends ReactiveCrudRepository<R2dbcTicket, String> {}
