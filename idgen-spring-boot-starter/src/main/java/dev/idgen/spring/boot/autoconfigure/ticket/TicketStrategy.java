package dev.idgen.spring.boot.autoconfigure.ticket;

import dev.idgen.core.IdService;
import dev.idgen.jdbc.TicketIdService;
import dev.idgen.jdbc.TicketServer;
import dev.idgen.spring.boot.autoconfigure.core.IdgenDependency;
import dev.idgen.spring.boot.autoconfigure.core.IdgenGeneratorHealth;
import dev.idgen.spring.boot.autoconfigure.core.IdgenGeneratorMeters;
import dev.idgen.spring.boot.autoconfigure.core.IdgenGenerators;
import dev.idgen.spring.boot.autoconfigure.core.IdgenSettings;
import dev.idgen.spring.boot.autoconfigure.core.IdgenStrategy;
import dev.idgen.spring.boot.autoconfigure.jdbc.JdbcFailoverDetails;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code ticket} strategy: Flickr-style ticket servers, a database row update per call.
 */
public final class TicketStrategy implements IdgenStrategy {

    @Override
    public Class<?> configuration() {
        return TicketConfiguration.class;
    }

    @Override
    public List<IdgenSettings<?>> sections() {
        return List.of(TicketProperties.SECTION);
    }

    @Override
    public List<Requirement> requirements(IdgenGenerators.Definition definition) {
        return List.of(Requirement.of(IdgenDependency.JDBC, definition.strategySetting(), definition, IdService.class)
                .orDataSource());
    }

    @Override
    public List<TableClaim> tables(IdgenGenerators.Definition definition) {
        return List.of(new TableClaim(
                definition.settings(TicketProperties.SECTION).getTable(),
                "ticket",
                definition.property("ticket.table")));
    }

    @Override
    public String store(IdgenGenerators.Definition definition) {
        return "jdbc";
    }

    @Override
    public IdgenGeneratorHealth health() {
        return new TicketHealth();
    }

    @Override
    public IdgenGeneratorMeters meters() {
        return new TicketMeters();
    }

    @Override
    public void describe(IdService backend, Map<String, Object> detail) {
        if (!(backend instanceof TicketIdService tickets)) {
            return;
        }
        Map<String, Object> breakers = new LinkedHashMap<>();
        for (TicketServer server : tickets.servers()) {
            breakers.put(server.id(), server.isOpen() ? "open" : "closed");
        }
        detail.put("breakers", breakers);
        Map<String, Object> failovers = new LinkedHashMap<>();
        for (TicketServer server : tickets.servers()) {
            failovers.put(server.id(), JdbcFailoverDetails.of(server));
        }
        detail.put("failover", failovers);
    }
}
