package dev.idgen.spring.boot.autoconfigure.ticket;

import dev.idgen.core.IdService;
import dev.idgen.core.StoreUnavailableException;
import dev.idgen.core.TimeSource;
import dev.idgen.core.segment.SegmentStartFloor;
import dev.idgen.jdbc.SchemaInitialization;
import dev.idgen.jdbc.TicketIdService;
import dev.idgen.jdbc.TicketServer;
import dev.idgen.jdbc.TicketTableMissingException;
import dev.idgen.jdbc.UnsupportedTicketDatabaseException;
import dev.idgen.spring.boot.autoconfigure.core.ConditionalOnIdgenStrategy;
import dev.idgen.spring.boot.autoconfigure.core.IdgenGeneratorFactory;
import dev.idgen.spring.boot.autoconfigure.core.IdgenGenerators;
import dev.idgen.spring.boot.autoconfigure.core.IdgenProperties;
import dev.idgen.spring.boot.autoconfigure.diagnostics.IdgenStartupException;
import dev.idgen.spring.boot.autoconfigure.diagnostics.InvalidIdgenProperty;
import dev.idgen.spring.boot.autoconfigure.jdbc.IdgenSchemaAdvice;
import dev.idgen.spring.boot.autoconfigure.jdbc.JdbcFailoverDetails;
import dev.idgen.spring.boot.autoconfigure.jdbc.JdbcProperties;
import dev.idgen.spring.boot.autoconfigure.jdbc.StartFloors;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import javax.sql.DataSource;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The {@code ticket} strategy: Flickr-style ticket servers on MySQL, MariaDB, PostgreSQL or H2 DataSources, for the
 * default generator and for each named one.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnIdgenStrategy(IdgenProperties.Strategy.TICKET)
public class TicketConfiguration {

    private static final Log LOG = LogFactory.getLog(TicketConfiguration.class);

    @Bean
    IdgenGeneratorFactory idgenTicketGenerators(
            IdgenProperties properties, ListableBeanFactory beans, TimeSource timeSource) {
        return new IdgenGeneratorFactory() {

            @Override
            public IdgenProperties.Strategy strategy() {
                return IdgenProperties.Strategy.TICKET;
            }

            @Override
            public IdService create(IdgenGenerators.Definition definition) {
                return ticketService(definition, properties.getAdmin().isResetEnabled(), beans, timeSource);
            }
        };
    }

    static TicketIdService ticketService(
            IdgenGenerators.Definition definition,
            boolean resetEnabled,
            ListableBeanFactory beans,
            TimeSource timeSource) {
        TicketProperties ticket = definition.settings(TicketProperties.SECTION);
        String prefix = definition.property("ticket");
        Duration retryAfter = ticket.getRetryAfter();
        if (retryAfter == null || retryAfter.isNegative() || retryAfter.compareTo(Duration.ofMinutes(10)) > 0) {
            throw new InvalidConfigurationPropertyValueException(
                    prefix + ".retry-after", retryAfter, "must be between 0 and 10m");
        }
        Duration timeout = definition.settings(JdbcProperties.SECTION).checkedTimeout(definition.property("jdbc"));
        List<TicketServer> servers = new ArrayList<>();
        if (ticket.getServers().isEmpty()) {
            DataSource dataSource = beans.getBeanProvider(DataSource.class).getIfUnique();
            if (dataSource == null) {
                throw IdgenStartupException.missingDataSource(
                        definition.strategySetting(),
                        "list DataSource bean names under " + prefix + ".servers[*].data-source");
            }
            servers.add(server("application", dataSource, definition, 0, 1, timeout, timeSource));
        } else {
            Map<String, DataSource> dataSources = beans.getBeansOfType(DataSource.class);
            int count = ticket.getServers().size();
            Set<Integer> offsets = new HashSet<>();
            TicketServer[] byOffset = new TicketServer[count];
            for (int i = 0; i < count; i++) {
                TicketProperties.Server server = ticket.getServers().get(i);
                String property = prefix + ".servers[" + i + "]";
                DataSource dataSource = dataSources.get(server.getDataSource());
                if (dataSource == null) {
                    throw new InvalidConfigurationPropertyValueException(
                            property + ".data-source",
                            server.getDataSource(),
                            "no DataSource bean has that name; there are " + dataSources.keySet());
                }
                int offset = server.getOffset() != null ? server.getOffset() : i;
                if (offset < 0 || offset >= count || !offsets.add(offset)) {
                    throw new InvalidConfigurationPropertyValueException(
                            property + ".offset",
                            offset,
                            "must be unique and between 0 and " + (count - 1)
                                    + " (one less than the number of servers)");
                }
                byOffset[offset] =
                        server(server.getDataSource(), dataSource, definition, offset, count, timeout, timeSource);
            }
            servers.addAll(List.of(byOffset));
        }
        TicketIdService service = new TicketIdService(servers, resetEnabled);
        try {
            checkTables(servers, definition);
        } catch (RuntimeException e) {
            service.close();
            throw e;
        }
        return service;
    }

    /**
     * Fails start-up on a ticket table that is missing, while a server that does not answer does not: it may come
     * back, and the health shows it down meanwhile (its breaker is open). Every wait is bounded by idgen.jdbc.timeout.
     */
    private static void checkTables(List<TicketServer> servers, IdgenGenerators.Definition definition) {
        for (TicketServer server : servers) {
            try {
                server.checkTable();
                JdbcFailoverDetails.logReplication(
                        "Ticket server " + server.id() + " (table " + server.table() + ")", server.failovers());
            } catch (TicketTableMissingException e) {
                throw new IdgenStartupException(
                        "The ticket table " + e.table() + " does not exist on ticket server "
                                + e.server() + ", and idgen does not create it ("
                                + definition.property("jdbc.initialize-schema")
                                + "=" + schemaInitialization(definition).name().toLowerCase(Locale.ROOT) + ")",
                        IdgenSchemaAdvice.createTable(e) + "; or " + IdgenSchemaAdvice.initializeSchema(definition),
                        e);
            } catch (UnsupportedTicketDatabaseException e) {
                throw new IdgenStartupException(
                        e.getMessage(),
                        "Point " + definition.property("ticket.servers")
                                + " (or spring.datasource.url) at MySQL, MariaDB, PostgreSQL or H2",
                        e);
            } catch (StoreUnavailableException e) {
                LOG.warn("Ticket server " + server.id() + " is unavailable at start-up; it is retried on use: "
                        + e.getMessage());
            }
        }
    }

    private static SchemaInitialization schemaInitialization(IdgenGenerators.Definition definition) {
        return definition
                .settings(TicketProperties.SECTION)
                .schemaInitialization(
                        definition.settings(JdbcProperties.SECTION).getInitializeSchema());
    }

    private static TicketServer server(
            String id,
            DataSource dataSource,
            IdgenGenerators.Definition definition,
            int offset,
            int count,
            Duration timeout,
            TimeSource timeSource) {
        TicketProperties ticket = definition.settings(TicketProperties.SECTION);
        StartFloors.Builder floors = StartFloors.builder(definition.property("ticket"))
                .startAbove(ticket.getStartAbove())
                .dataSource(dataSource, timeout);
        ticket.getNames()
                .forEach((name, start) -> floors.name(
                        name,
                        start == null ? null : start.getStartAbove(),
                        start == null ? null : start.getStartAboveMaxOf()));
        SegmentStartFloor startFloor = floors.build();
        return InvalidIdgenProperty.rethrowAsProperty(
                definition.property("ticket"),
                () -> new TicketServer(
                        id,
                        dataSource,
                        ticket.getTable(),
                        offset,
                        count,
                        schemaInitialization(definition),
                        timeout,
                        ticket.getRetryAfter(),
                        timeSource,
                        JdbcFailoverDetails.jump(definition, ticket.getFailoverJump()),
                        startFloor));
    }
}
