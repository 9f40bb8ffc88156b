package dev.idgen.spring.boot.autoconfigure.ticket;

import dev.idgen.core.IdService;
import dev.idgen.jdbc.TicketIdService;
import dev.idgen.jdbc.TicketServer;
import dev.idgen.spring.boot.autoconfigure.core.IdgenGeneratorHealth;
import dev.idgen.spring.boot.autoconfigure.jdbc.JdbcFailoverDetails;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.health.contributor.Health;

/**
 * Ticket-server health: each server UP or DOWN (its circuit breaker open), the strategy DOWN when all are. Reading it
 * issues no ID and touches no database whose breaker is closed: the breakers already know. A server whose breaker is
 * open is probed once its retry-after has passed ({@link TicketServer#probeIfDue()}: one bounded round trip), so that
 * a server nobody calls shows up again when it answers again.
 */
public final class TicketHealth implements IdgenGeneratorHealth {

    @Override
    public String strategy() {
        return TicketIdService.STRATEGY;
    }

    @Override
    public void contribute(String generator, IdService idService, Health.Builder builder) {
        if (!(idService instanceof TicketIdService tickets)) {
            return;
        }
        Map<String, Object> servers = new LinkedHashMap<>();
        int down = 0;
        for (TicketServer server : tickets.servers()) {
            if (server.isOpen()) {
                server.probeIfDue();
            }
            Map<String, Object> detail = new LinkedHashMap<>();
            detail.put("status", server.isOpen() ? "DOWN" : "UP");
            detail.put("offset", server.offset());
            detail.putAll(JdbcFailoverDetails.of(server));
            if (server.isOpen() && server.lastError() != null) {
                detail.put("error", server.lastError());
                down++;
            } else if (server.isOpen()) {
                down++;
            }
            servers.put(server.id(), detail);
        }
        builder.withDetail("servers", servers);
        if (down == tickets.servers().size()) {
            builder.down().withDetail("error", "Every ticket server is down");
        }
    }
}
