package dev.idgen.spring.boot.autoconfigure.jdbc;

import dev.idgen.core.spi.WorkerIdLeaseStore;
import dev.idgen.jdbc.JdbcWorkerIdLeaseStore;
import dev.idgen.spring.boot.autoconfigure.core.IdgenGenerators;
import dev.idgen.spring.boot.autoconfigure.diagnostics.IdgenStartupException;
import dev.idgen.spring.boot.autoconfigure.diagnostics.InvalidIdgenProperty;
import java.time.Duration;
import java.util.Map;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * {@code idgen.snowflake.worker-id-assigner=jdbc}: worker id leases in a table ({@code idgen.jdbc.worker-table}) of
 * the application's {@link DataSource}.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "idgen.snowflake.worker-id-assigner", havingValue = "jdbc")
public class JdbcLeaseConfiguration {

    @Bean
    @ConditionalOnMissingBean
    WorkerIdLeaseStore idgenWorkerIdLeaseStore(ObjectProvider<DataSource> dataSources, IdgenGenerators generators) {
        IdgenGenerators.Definition definition = generators.defaultGenerator();
        return store(
                definition, dataSources.getIfUnique(), definition.property("snowflake.worker-id-assigner") + "=jdbc");
    }

    /**
     * A generator's worker id leases in its {@code jdbc.worker-table}.
     *
     * @param dataSource the application's single DataSource, or null
     * @param feature the setting that asks for the leases, for messages
     * @throws IdgenStartupException when there is no DataSource, or the table does not exist and idgen does not
     *         create it
     */
    public static WorkerIdLeaseStore store(
            IdgenGenerators.Definition definition, DataSource dataSource, String feature) {
        if (dataSource == null) {
            throw IdgenStartupException.missingDataSource(feature, null);
        }
        JdbcProperties jdbc = definition.settings(JdbcProperties.SECTION);
        Duration timeout = jdbc.checkedTimeout(definition.property("jdbc"));
        JdbcWorkerIdLeaseStore store = InvalidIdgenProperty.rethrowAsProperty(
                definition.property("jdbc"),
                Map.of("table", "worker-table"),
                () -> new JdbcWorkerIdLeaseStore(
                        dataSource, jdbc.getWorkerTable(), jdbc.getInitializeSchema(), timeout));
        // Before the assigner's first acquisition, which would wait out its acquire timeout on a missing table as on
        // a store that is starting.
        TableCheck.check(definition, feature, "jdbc.worker-table", store::checkAvailable);
        JdbcFailoverDetails.logReplication(
                "The worker id lease table " + store.table() + " of generator '" + definition.name() + "'",
                store.failovers());
        return store;
    }
}
