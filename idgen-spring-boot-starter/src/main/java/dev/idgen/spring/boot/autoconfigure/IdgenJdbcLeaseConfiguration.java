package dev.idgen.spring.boot.autoconfigure;

import dev.idgen.core.spi.WorkerIdLeaseStore;
import dev.idgen.jdbc.JdbcWorkerIdLeaseStore;
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
class IdgenJdbcLeaseConfiguration {

    @Bean
    @ConditionalOnMissingBean
    WorkerIdLeaseStore idgenWorkerIdLeaseStore(ObjectProvider<DataSource> dataSources, IdgenProperties properties) {
        DataSource dataSource = dataSources.getIfUnique();
        if (dataSource == null) {
            throw IdgenStartupException.missingDataSource("idgen.snowflake.worker-id-assigner=jdbc", null);
        }
        IdgenProperties.Jdbc jdbc = properties.getJdbc();
        return InvalidIdgenProperty.rethrowAsProperty("idgen.jdbc", Map.of("table", "worker-table"),
                () -> new JdbcWorkerIdLeaseStore(dataSource, jdbc.getWorkerTable(), jdbc.getInitializeSchema(),
                        jdbc.checkedTimeout()));
    }
}
