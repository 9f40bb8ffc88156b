package dev.idgen.spring.boot.autoconfigure.ticket;

import dev.idgen.core.IdService;
import dev.idgen.jdbc.JdbcFailovers;
import dev.idgen.jdbc.TicketIdService;
import dev.idgen.jdbc.TicketServer;
import dev.idgen.spring.boot.autoconfigure.core.IdgenGeneratorMeters;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

/**
 * Ticket-server meters: per server, round trips ({@code idgen.ticket.calls}), the IDs they handed out
 * ({@code idgen.ticket.ids}; more IDs than round trips is calls sharing them), failed round trips and the breaker.
 */
public final class TicketMeters implements IdgenGeneratorMeters {

    @Override
    public String strategy() {
        return TicketIdService.STRATEGY;
    }

    @Override
    public void bind(MeterRegistry registry, IdService idService, Tags tags) {
        if (!(idService instanceof TicketIdService tickets)) {
            return;
        }
        FunctionCounter.builder("idgen.ids.generated", tickets, TicketIdService::generatedCount)
                .description("IDs issued")
                .tags(tags)
                .register(registry);
        for (TicketServer server : tickets.servers()) {
            Tags serverTags = tags.and("server", server.id());
            FunctionCounter.builder("idgen.ticket.calls", server, TicketServer::calls)
                    .description("Round trips to a ticket server (statements advancing a row); concurrent calls for"
                            + " one name share one")
                    .tags(serverTags)
                    .register(registry);
            FunctionCounter.builder("idgen.ticket.ids", server, TicketServer::issued)
                    .description("IDs a ticket server handed out; per round trip, how many calls shared one")
                    .tags(serverTags)
                    .register(registry);
            FunctionCounter.builder("idgen.jdbc.failovers", server.failovers(), JdbcFailovers::count)
                    .description("Rows moved past a failover to a promoted replica")
                    .tags(serverTags)
                    .register(registry);
            FunctionCounter.builder("idgen.ticket.errors", server, TicketServer::errors)
                    .description("Round trips to a ticket server that failed")
                    .tags(serverTags)
                    .register(registry);
            Gauge.builder("idgen.ticket.circuit.open", server, s -> s.isOpen() ? 1 : 0)
                    .description("1 while the server's circuit breaker is open")
                    .tags(serverTags)
                    .register(registry);
        }
    }
}
