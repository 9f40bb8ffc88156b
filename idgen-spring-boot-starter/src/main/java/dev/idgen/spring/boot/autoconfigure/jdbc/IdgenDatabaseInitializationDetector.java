package dev.idgen.spring.boot.autoconfigure.jdbc;

import dev.idgen.core.IdService;
import dev.idgen.core.segment.SegmentStore;
import dev.idgen.core.snowflake.SnowflakeGenerator;
import dev.idgen.core.spi.WorkerIdAssigner;
import dev.idgen.core.spi.WorkerIdLeaseStore;
import dev.idgen.redis.RedisWindowedCounter;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.springframework.boot.sql.init.dependency.AbstractBeansOfTypeDependsOnDatabaseInitializationDetector;
import org.springframework.boot.sql.init.dependency.DependsOnDatabaseInitializationDetector;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

/**
 * Orders idgen's beans that read or write its tables while the context starts after Spring Boot's database
 * initialisation: Flyway, Liquibase and the {@code spring.sql.init} scripts. Each of these beans checks its table when
 * it is created (and fails start-up on a missing one), the lease store's assigner leases a worker id, and the
 * generators built inside the {@link IdService} bean (ticket, segment, Snowflake with database leases) do both; so
 * without this, {@code idgen.jdbc.initialize-schema=never} beside migrations that Spring Boot runs would fail start-up
 * with a missing table, because the migration that creates it had not run yet.
 *
 * <p>Registered in {@code META-INF/spring.factories} under {@link DependsOnDatabaseInitializationDetector}; Spring
 * Boot then makes every bean of these types depend on the database initializers it finds. Where there is none (no
 * DataSource, no Flyway, no Liquibase), nothing changes. A bean of these types that uses no database (a Redis lease
 * store, a static worker id) is merely created after the migrations, which costs nothing.
 *
 * <p>Not with {@code spring.jpa.defer-datasource-initialization=true}: Spring Boot then counts the
 * EntityManagerFactory as a database initializer, and idgen's Hibernate integration makes the EntityManagerFactory
 * depend on the {@link IdService} (its {@code @IdgenId} generators need it), so ordering idgen after every initializer
 * would be a cycle that fails start-up. There idgen's beans stay unordered, as they were before this detector: its
 * tables must exist before the start (migrations run beforehand, or {@code idgen.jdbc.initialize-schema=always}).
 */
final class IdgenDatabaseInitializationDetector extends AbstractBeansOfTypeDependsOnDatabaseInitializationDetector {

    /** The Redis strategy's counter keeps its windows in the segment table; it needs Lettuce to be loaded. */
    private static final String LETTUCE = "io.lettuce.core.RedisClient";

    private static final String DEFER_JPA = "spring.jpa.defer-datasource-initialization";

    private final Environment environment;

    /**
     * @param environment for {@value #DEFER_JPA}; Spring Boot passes it when it loads the detectors
     */
    IdgenDatabaseInitializationDetector(Environment environment) {
        this.environment = environment;
    }

    @Override
    protected Set<Class<?>> getDependsOnDatabaseInitializationBeanTypes() {
        if (environment.getProperty(DEFER_JPA, Boolean.class, false)) {
            return Set.of();
        }
        Set<Class<?>> types = new LinkedHashSet<>(List.of(
                IdService.class,
                SegmentStore.class,
                WorkerIdLeaseStore.class,
                WorkerIdAssigner.class,
                SnowflakeGenerator.class));
        if (ClassUtils.isPresent(LETTUCE, IdgenDatabaseInitializationDetector.class.getClassLoader())) {
            types.add(RedisWindowedCounter.class);
        }
        return types;
    }
}
