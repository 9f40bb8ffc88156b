package dev.idgen.spring.boot.autoconfigure;

import dev.idgen.core.IdService;
import dev.idgen.core.TimeSource;
import dev.idgen.core.segment.SegmentIdService;
import dev.idgen.core.segment.SegmentSettings;
import dev.idgen.core.segment.SegmentStore;
import dev.idgen.jdbc.JdbcSegmentStore;
import java.time.Duration;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * {@code idgen.strategy=segment}: a {@link SegmentIdService} over a {@link SegmentStore}, by default the JDBC store on
 * the application's {@link DataSource}.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "idgen.strategy", havingValue = "segment")
@Import(IdgenSegmentConfiguration.JdbcStoreConfiguration.class)
class IdgenSegmentConfiguration {

    private static final String PREFIX = "idgen.segment";

    @Bean
    @ConditionalOnMissingBean
    IdService idService(IdgenProperties properties, ObjectProvider<SegmentStore> stores, TimeSource timeSource) {
        SegmentSettings settings = InvalidIdgenProperty.rethrowAsProperty(PREFIX,
                () -> properties.getSegment().settings());
        SegmentStore store = stores.getIfAvailable();
        if (store == null) {
            throw new IdgenStartupException("idgen.strategy=segment needs a segment store, but there is no single"
                    + " DataSource bean", "Add org.springframework.boot:spring-boot-starter-jdbc and a JDBC driver, and"
                    + " set spring.datasource.url; or declare a SegmentStore bean");
        }
        return SegmentIdService.builder(store).settings(settings).timeSource(timeSource)
                .maxNames(properties.checkedMaxNames()).build();
    }

    /**
     * The database store Redis windows are reserved from (and the dual store falls back to): the same table and
     * settings as the jdbc segment store, on the application's {@link DataSource}.
     *
     * @param feature what needs it, for the error message
     */
    static JdbcSegmentStore windowStore(IdgenProperties properties, org.springframework.beans.factory.BeanFactory beans,
            String feature) {
        DataSource dataSource = beans.getBeanProvider(DataSource.class).getIfUnique();
        if (dataSource == null) {
            throw new IdgenStartupException(feature + " keeps its durable floor in a database (so that a Redis that"
                    + " lost its data never repeats IDs), but there is no single DataSource bean", "Add"
                    + " org.springframework.boot:spring-boot-starter-jdbc and a JDBC driver, and set"
                    + " spring.datasource.url");
        }
        IdgenProperties.Jdbc jdbc = properties.getJdbc();
        Duration timeout = jdbc.checkedTimeout();
        return InvalidIdgenProperty.rethrowAsProperty("idgen.jdbc", () -> new JdbcSegmentStore(dataSource,
                jdbc.getTable(), jdbc.getInitialValue(), jdbc.getInitializeSchema(), timeout));
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnSingleCandidate(DataSource.class)
    @ConditionalOnProperty(name = "idgen.segment.store", havingValue = "jdbc", matchIfMissing = true)
    static class JdbcStoreConfiguration {

        @Bean
        @ConditionalOnMissingBean
        SegmentStore idgenSegmentStore(IdgenProperties properties, DataSource dataSource) {
            IdgenProperties.Jdbc jdbc = properties.getJdbc();
            Duration timeout = jdbc.checkedTimeout();
            return InvalidIdgenProperty.rethrowAsProperty("idgen.jdbc", () -> new JdbcSegmentStore(dataSource,
                    jdbc.getTable(), jdbc.getInitialValue(), jdbc.getInitializeSchema(), timeout));
        }
    }
}
