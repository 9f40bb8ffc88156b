package dev.idgen.server;

import dev.idgen.core.IdService;
import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.RoutingIdService;
import dev.idgen.core.StoreUnavailableException;
import dev.idgen.core.form.IdForms;
import dev.idgen.jdbc.TinyidTokenTable;
import dev.idgen.server.access.NanoClock;
import dev.idgen.server.access.ServerClients;
import dev.idgen.server.access.TinyidTokens;
import dev.idgen.server.metrics.NamesRunningOutHealth;
import dev.idgen.server.metrics.ServerMeters;
import dev.idgen.spring.boot.autoconfigure.diagnostics.IdgenPropertyValueException;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * The server's beans: its clients, its meters and the {@link IdgenServerApi} every transport calls. The
 * {@code idgen.server.*} settings are checked here, so that a bad one fails start-up naming the property (reported
 * by the starter's failure analyzer).
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(IdgenServerProperties.class)
public class IdgenServerConfiguration {

    /** The largest {@code idgen.server.max-block-size}. */
    static final long MAX_BLOCK_SIZE = 1_000_000_000L;

    /** {@code idgen.jdbc.failover-jump}'s default. */
    static final long DEFAULT_FAILOVER_JUMP = 100_000_000_000L;

    @Bean
    ServerClients idgenServerClients(
            IdgenServerProperties properties, IdService idService, ObjectProvider<NanoClock> clock) {
        return new ServerClients(
                properties, RoutingIdService.generatorsOf(idService).keySet(), clock.getIfAvailable(NanoClock::system));
    }

    /**
     * Tinyid's token table, with {@code idgen.server.compat.tinyid.token-table}: read now, so that a table that cannot
     * be read fails start-up naming the setting.
     */
    @Bean(destroyMethod = "close")
    @ConditionalOnProperty(name = "idgen.server.compat.tinyid.enabled", havingValue = "true")
    @ConditionalOnProperty(name = "idgen.server.compat.tinyid.token-table")
    TinyidTokens idgenTinyidTokens(IdgenServerProperties properties, ObjectProvider<DataSource> dataSources) {
        String property = "idgen.server.compat.tinyid.token-table";
        String table = properties.getCompat().getTinyid().getTokenTable();
        DataSource dataSource = dataSources.getIfUnique();
        if (dataSource == null) {
            throw new IdgenPropertyValueException(
                    property,
                    table,
                    "Tinyid's token table is read from the server's database, but there is no single DataSource",
                    "Set spring.datasource.url to the database that holds it, or remove " + property + ".");
        }
        TinyidTokenTable tokens;
        try {
            tokens = new TinyidTokenTable(dataSource, table, Duration.ofSeconds(5));
            return new TinyidTokens(tokens::read);
        } catch (InvalidArgumentException | StoreUnavailableException e) {
            throw new IdgenPropertyValueException(
                    property,
                    table,
                    "could not be read: " + e.getMessage(),
                    "Name Tinyid's token table (tiny_id_token) on the server's database, or remove " + property + ".");
        }
    }

    @Bean(destroyMethod = "close")
    IdleNames idgenServerIdleNames(IdgenServerProperties properties, ServerClients clients, IdService idService) {
        return new IdleNames(clients, idService, properties.getNameIdle());
    }

    @Bean
    NamesRunningOutHealth idgenNamesHealthIndicator(ServerMeters meters) {
        return new NamesRunningOutHealth(meters, IdgenServerService.HIGHEST_ID);
    }

    @Bean
    ServerMeters idgenServerMeters(MeterRegistry registry) {
        return new ServerMeters(registry);
    }

    @Bean(destroyMethod = "close")
    StoreWork idgenServerStoreWork(IdgenServerProperties properties) {
        int threads = (int) inRange("idgen.server.store-threads", properties.getStoreThreads(), 1, 1024);
        int queue = (int) inRange("idgen.server.store-queue", properties.getStoreQueue(), 0, 10_000);
        return new StoreWork(threads, queue);
    }

    @Bean
    IdgenServerService idgenServerService(
            IdgenServerProperties properties,
            StoreWork storeWork,
            IdService idService,
            IdForms forms,
            ServerClients clients,
            ServerMeters meters,
            Environment environment) {
        int maxCount = (int) inRange("idgen.server.max-count", properties.getMaxCount(), 1, IdService.MAX_BATCH_SIZE);
        long maxBlockSize = inRange("idgen.server.max-block-size", properties.getMaxBlockSize(), 1, MAX_BLOCK_SIZE);
        Duration timeout = properties.getRequestTimeout();
        if (timeout == null
                || timeout.compareTo(Duration.ofMillis(1)) < 0
                || timeout.compareTo(Duration.ofMinutes(1)) > 0) {
            throw new IdgenPropertyValueException(
                    "idgen.server.request-timeout",
                    timeout,
                    "must be from 1ms to 1m",
                    "Set idgen.server.request-timeout to how long a request may wait for a store, e.g. 5s.");
        }
        // The starter checks the jump's range; a store without one still loses no more than a lagging replica did.
        long failoverJump = environment.getProperty("idgen.jdbc.failover-jump", Long.class, DEFAULT_FAILOVER_JUMP);
        return new IdgenServerService(
                idService,
                forms,
                clients,
                meters,
                maxCount,
                maxBlockSize,
                Math.max(0, failoverJump),
                storeWork,
                timeout);
    }

    /**
     * @return {@code value}, checked
     * @throws IdgenPropertyValueException naming {@code property} and its range when {@code value} lies outside it
     */
    public static long inRange(String property, long value, long min, long max) {
        if (value < min || value > max) {
            throw new IdgenPropertyValueException(
                    property,
                    value,
                    "must be between " + min + " and " + max,
                    "Set " + property + " to a value from " + min + " to " + max + ".");
        }
        return value;
    }
}
