package dev.idgen.spring.boot.autoconfigure;

import dev.idgen.core.IdService;
import dev.idgen.jdbc.TicketIdService;
import dev.idgen.jdbc.TicketServer;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

/**
 * Ticket-server meters.
 */
final class TicketMeters implements IdgenGeneratorMeters {

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
                .description("IDs issued").tags(tags).register(registry);
        for (TicketServer server : tickets.servers()) {
            Tags serverTags = tags.and("server", server.id());
            FunctionCounter.builder("idgen.ticket.calls", server, TicketServer::calls)
                    .description("Calls to a ticket server").tags(serverTags).register(registry);
            FunctionCounter.builder("idgen.ticket.errors", server, TicketServer::errors)
                    .description("Calls to a ticket server that failed").tags(serverTags).register(registry);
            Gauge.builder("idgen.ticket.circuit.open", server, s -> s.isOpen() ? 1 : 0)
                    .description("1 while the server's circuit breaker is open").tags(serverTags).register(registry);
        }
    }
}
