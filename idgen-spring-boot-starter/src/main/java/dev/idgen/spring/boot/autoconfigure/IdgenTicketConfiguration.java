package dev.idgen.spring.boot.autoconfigure;

import dev.idgen.core.IdService;
import dev.idgen.core.TimeSource;
import dev.idgen.jdbc.TicketIdService;
import dev.idgen.jdbc.TicketServer;
import dev.idgen.jdbc.TicketTableMissingException;
import dev.idgen.jdbc.UnsupportedTicketDatabaseException;
import dev.idgen.core.StoreUnavailableException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.sql.DataSource;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * {@code idgen.strategy=ticket}: Flickr-style ticket servers on MySQL, MariaDB, PostgreSQL or H2 DataSources.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "idgen.strategy", havingValue = "ticket")
@EnableConfigurationProperties(IdgenTicketProperties.class)
class IdgenTicketConfiguration {

    private static final org.apache.commons.logging.Log LOG =
            org.apache.commons.logging.LogFactory.getLog(IdgenTicketConfiguration.class);

    private static final String PREFIX = "idgen.ticket";

    @Bean
    @ConditionalOnMissingBean
    IdService idService(IdgenTicketProperties ticket, IdgenProperties properties, ListableBeanFactory beans,
            ObjectProvider<DataSource> applicationDataSource, TimeSource timeSource) {
        Duration retryAfter = ticket.getRetryAfter();
        if (retryAfter == null || retryAfter.isNegative() || retryAfter.compareTo(Duration.ofMinutes(10)) > 0) {
            throw new InvalidConfigurationPropertyValueException(PREFIX + ".retry-after", retryAfter,
                    "must be between 0 and 10m");
        }
        Duration timeout = properties.getJdbc().checkedTimeout();
        List<TicketServer> servers = new ArrayList<>();
        if (ticket.getServers().isEmpty()) {
            DataSource dataSource = applicationDataSource.getIfUnique();
            if (dataSource == null) {
                throw IdgenStartupException.missingDataSource("idgen.strategy=ticket",
                        "list DataSource bean names under idgen.ticket.servers[*].data-source");
            }
            servers.add(server("application", dataSource, ticket, 0, 1, timeout, timeSource, properties));
        } else {
            Map<String, DataSource> dataSources = beans.getBeansOfType(DataSource.class);
            int count = ticket.getServers().size();
            Set<Integer> offsets = new HashSet<>();
            TicketServer[] byOffset = new TicketServer[count];
            for (int i = 0; i < count; i++) {
                IdgenTicketProperties.Server server = ticket.getServers().get(i);
                String property = PREFIX + ".servers[" + i + "]";
                DataSource dataSource = dataSources.get(server.getDataSource());
                if (dataSource == null) {
                    throw new InvalidConfigurationPropertyValueException(property + ".data-source",
                            server.getDataSource(), "no DataSource bean has that name; there are " + dataSources.keySet());
                }
                int offset = server.getOffset() != null ? server.getOffset() : i;
                if (offset < 0 || offset >= count || !offsets.add(offset)) {
                    throw new InvalidConfigurationPropertyValueException(property + ".offset", offset,
                            "must be unique and between 0 and " + (count - 1) + " (one less than the number of servers)");
                }
                byOffset[offset] = server(server.getDataSource(), dataSource, ticket, offset, count, timeout, timeSource,
                        properties);
            }
            servers.addAll(List.of(byOffset));
        }
        TicketIdService service = new TicketIdService(servers, properties.getAdmin().isResetEnabled());
        try {
            checkTables(servers, ticket, properties);
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
    private static void checkTables(List<TicketServer> servers, IdgenTicketProperties ticket,
            IdgenProperties properties) {
        for (TicketServer server : servers) {
            try {
                server.checkTable();
            } catch (TicketTableMissingException e) {
                throw new IdgenStartupException("The ticket table " + e.table() + " does not exist on ticket server "
                        + e.server() + ", and idgen does not create it (idgen.jdbc.initialize-schema="
                        + ticket.schemaInitialization(properties.getJdbc().getInitializeSchema()).name()
                                .toLowerCase(java.util.Locale.ROOT) + ")",
                        "Create the table with the DDL idgen ships in " + e.ddlResource() + " (replace ${table}"
                                + " with " + e.table() + "), or set idgen.jdbc.initialize-schema=always to let idgen"
                                + " create it", e);
            } catch (UnsupportedTicketDatabaseException e) {
                throw new IdgenStartupException(e.getMessage(), "Point idgen.ticket.servers (or spring.datasource.url)"
                        + " at MySQL, MariaDB, PostgreSQL or H2", e);
            } catch (StoreUnavailableException e) {
                LOG.warn("Ticket server " + server.id() + " is unavailable at start-up; it is retried on use: "
                        + e.getMessage());
            }
        }
    }

    private static TicketServer server(String id, DataSource dataSource, IdgenTicketProperties ticket, int offset,
            int count, Duration timeout, TimeSource timeSource, IdgenProperties properties) {
        return InvalidIdgenProperty.rethrowAsProperty(PREFIX, () -> new TicketServer(id, dataSource, ticket.getTable(),
                offset, count, ticket.schemaInitialization(properties.getJdbc().getInitializeSchema()), timeout,
                ticket.getRetryAfter(), timeSource));
    }
}
