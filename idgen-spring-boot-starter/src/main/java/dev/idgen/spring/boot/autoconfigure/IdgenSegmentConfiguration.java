package dev.idgen.spring.boot.autoconfigure;

import dev.idgen.core.IdService;
import dev.idgen.core.TimeSource;
import dev.idgen.core.segment.SegmentIdService;
import dev.idgen.core.segment.SegmentSettings;
import dev.idgen.core.segment.SegmentStore;
import dev.idgen.jdbc.JdbcSegmentStore;
import java.time.Duration;
import org.apache.ibatis.session.SqlSessionFactory;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * The {@code segment} strategy: a {@link SegmentIdService} over a {@link SegmentStore}. The default generator's store
 * is a bean (by default the JDBC store on the application's MyBatis {@link SqlSessionFactory}) the application may
 * replace; a named generator builds the store its {@code segment.store} names.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnIdgenStrategy(IdgenProperties.Strategy.SEGMENT)
@Import(IdgenSegmentConfiguration.JdbcStoreConfiguration.class)
class IdgenSegmentConfiguration {

    @Bean
    IdgenGeneratorFactory idgenSegmentGenerators(ObjectProvider<SegmentStore> defaultStore, BeanFactory beans,
            TimeSource timeSource) {
        return new IdgenGeneratorFactory() {

            @Override
            public IdgenProperties.Strategy strategy() {
                return IdgenProperties.Strategy.SEGMENT;
            }

            @Override
            public IdService create(IdgenGenerators.Definition definition) {
                SegmentSettings settings = InvalidIdgenProperty.rethrowAsProperty(definition.property("segment"),
                        () -> definition.properties().getSegment().settings());
                int maxNames = InvalidIdgenProperty.rethrowAsProperty(definition.prefix(),
                        () -> dev.idgen.core.NameLimit.check(definition.properties().getMaxNames()));
                SegmentStore store = definition.isDefault() ? defaultStore.getIfAvailable() : store(definition, beans);
                if (store == null) {
                    throw new IdgenStartupException(definition.strategySetting() + " needs a segment store, but there"
                            + " is no single MyBatis SqlSessionFactory (there is no single DataSource)", "Add"
                            + " org.springframework.boot:spring-boot-starter-jdbc (mybatis-spring-boot-starter brings"
                            + " it) and a JDBC driver, and set spring.datasource.url; or declare a SegmentStore bean");
                }
                return SegmentIdService.builder(store).settings(settings).timeSource(timeSource).maxNames(maxNames)
                        .build();
            }
        };
    }

    /** A named generator's store, or null when its database is missing. */
    private static SegmentStore store(IdgenGenerators.Definition definition, BeanFactory beans) {
        if (definition.properties().getSegment().getStore() != IdgenProperties.SegmentStoreType.JDBC) {
            return IdgenRedisConfiguration.segmentStore(definition, beans);
        }
        SqlSessionFactory factory = beans.getBeanProvider(SqlSessionFactory.class).getIfUnique();
        return factory == null ? null : jdbcStore(definition, factory);
    }

    static JdbcSegmentStore jdbcStore(IdgenGenerators.Definition definition, SqlSessionFactory factory) {
        IdgenProperties.Jdbc jdbc = definition.properties().getJdbc();
        Duration timeout = jdbc.checkedTimeout(definition.property("jdbc"));
        return InvalidIdgenProperty.rethrowAsProperty(definition.property("jdbc"), () -> new JdbcSegmentStore(factory,
                jdbc.getTable(), jdbc.getInitialValue(), jdbc.getInitializeSchema(), timeout));
    }

    /**
     * The database store Redis windows are reserved from (and the dual store falls back to): the same table and
     * settings as the jdbc segment store, on the application's MyBatis {@link SqlSessionFactory}.
     */
    static JdbcSegmentStore windowStore(IdgenGenerators.Definition definition, BeanFactory beans, String feature) {
        if (!org.springframework.util.ClassUtils.isPresent("org.apache.ibatis.session.SqlSessionFactory",
                IdgenSegmentConfiguration.class.getClassLoader())) {
            throw IdgenStartupException.missingDependency(feature, "MyBatis with Spring",
                    "org.apache.ibatis.session.SqlSessionFactory", "org.mybatis.spring.boot:mybatis-spring-boot-starter");
        }
        SqlSessionFactory factory = beans.getBeanProvider(SqlSessionFactory.class).getIfUnique();
        if (factory == null) {
            throw new IdgenStartupException(feature + " keeps its durable floor in a database (so that a Redis that"
                    + " lost its data never repeats IDs), but there is no single MyBatis SqlSessionFactory", "Add"
                    + " org.springframework.boot:spring-boot-starter-jdbc (mybatis-spring-boot-starter brings it) and a"
                    + " JDBC driver, and set spring.datasource.url");
        }
        return jdbcStore(definition, factory);
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnIdgenStrategy(value = IdgenProperties.Strategy.SEGMENT, defaultOnly = true)
    @ConditionalOnClass(name = "org.apache.ibatis.session.SqlSessionFactory")
    @ConditionalOnSingleCandidate(SqlSessionFactory.class)
    @ConditionalOnProperty(name = "idgen.segment.store", havingValue = "jdbc", matchIfMissing = true)
    static class JdbcStoreConfiguration {

        @Bean
        @ConditionalOnMissingBean
        SegmentStore idgenSegmentStore(SqlSessionFactory sqlSessionFactory,
                org.springframework.core.env.Environment environment) {
            return jdbcStore(IdgenGenerators.of(environment).defaultGenerator(), sqlSessionFactory);
        }
    }
}
