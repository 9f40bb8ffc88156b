package dev.idgen.spring.boot.autoconfigure;

import dev.idgen.core.IdService;
import dev.idgen.core.ReadableIdService;
import dev.idgen.core.segment.SegmentStore;
import dev.idgen.core.spi.WorkerIdAssigner;
import dev.idgen.core.spi.WorkerIdLeaseStore;
import javax.sql.DataSource;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

/**
 * Checks idgen's settings before any bean is created: an unknown {@code idgen.strategy}, and an optional dependency
 * that the chosen strategy or option needs but the classpath lacks. Without this check an unknown strategy surfaces
 * as "a bean of type IdService could not be found" in whichever bean injects it first, and a missing library as a
 * raw {@link NoClassDefFoundError}.
 *
 * <p>A requirement is waived when the application defines the piece itself (its own {@code IdService},
 * {@code SegmentStore}, ...), as idgen's {@code @ConditionalOnMissingBean} back-offs would let it.
 */
final class IdgenRequirements implements BeanFactoryPostProcessor {

    private static final String OWN_CONFIGURATION = IdgenRequirements.class.getPackageName() + ".";

    /** The database strategies reach their table through the DataSource bean that Spring Boot's JDBC support makes. */
    private static final Dependency JDBC = new Dependency("spring-boot-jdbc (DataSource)",
            "org.springframework.boot:spring-boot-starter-jdbc",
            "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration");

    private static final Dependency REDIS = new Dependency("Spring Data Redis with Lettuce",
            "org.springframework.boot:spring-boot-starter-data-redis (spring-boot-data-redis and lettuce-core)",
            "org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory", "io.lettuce.core.RedisClient");

    private final Environment environment;

    IdgenRequirements(Environment environment) {
        this.environment = environment;
    }

    @Override
    public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {
        Binder binder = Binder.get(environment);
        IdgenProperties.Strategy strategy = IdgenProperties.Strategy
                .of(binder.bind("idgen.strategy", String.class).orElse(IdgenProperties.Strategy.SNOWFLAKE.value()));
        ClassLoader classLoader = beanFactory.getBeanClassLoader();
        switch (strategy) {
            case SEGMENT -> {
                IdgenProperties.SegmentStoreType store = binder
                        .bind("idgen.segment.store", IdgenProperties.SegmentStoreType.class)
                        .orElse(IdgenProperties.SegmentStoreType.JDBC);
                String feature = store == IdgenProperties.SegmentStoreType.JDBC ? "idgen.strategy=segment"
                        : "idgen.segment.store=" + store.name().toLowerCase(java.util.Locale.ROOT);
                if (store != IdgenProperties.SegmentStoreType.JDBC) {
                    require(REDIS, feature, classLoader, beanFactory, SegmentStore.class, IdService.class);
                }
                // The Redis stores keep their durable floor in the database too.
                require(JDBC, feature, classLoader, beanFactory, SegmentStore.class, IdService.class, DataSource.class);
            }
            case TICKET -> require(JDBC, "idgen.strategy=ticket", classLoader, beanFactory, IdService.class,
                    DataSource.class);
            case REDIS -> {
                require(REDIS, "idgen.strategy=redis", classLoader, beanFactory, IdService.class);
                require(JDBC, "idgen.strategy=redis", classLoader, beanFactory, IdService.class, DataSource.class);
            }
            case SNOWFLAKE -> {
                IdgenProperties.WorkerIdAssignerType assigner = binder
                        .bind("idgen.snowflake.worker-id-assigner", IdgenProperties.WorkerIdAssignerType.class)
                        .orElse(IdgenProperties.WorkerIdAssignerType.STATIC);
                if (assigner == IdgenProperties.WorkerIdAssignerType.REDIS) {
                    require(REDIS, "idgen.snowflake.worker-id-assigner=redis", classLoader, beanFactory,
                            WorkerIdLeaseStore.class, WorkerIdAssigner.class);
                }
            }
        }
        if (binder.bind("idgen.redis.buckets.enabled", Boolean.class).orElse(false)) {
            require(REDIS, "idgen.redis.buckets.enabled=true", classLoader, beanFactory, ReadableIdService.class);
        }
    }

    private static void require(Dependency dependency, String feature, ClassLoader classLoader,
            ConfigurableListableBeanFactory beanFactory, Class<?>... ownPieces) {
        String missing = dependency.missingClass(classLoader);
        if (missing != null && !definedByApplication(beanFactory, ownPieces)) {
            throw IdgenStartupException.missingDependency(feature, dependency.what(), missing,
                    dependency.coordinates());
        }
    }

    private static boolean definedByApplication(ConfigurableListableBeanFactory beanFactory, Class<?>... types) {
        for (Class<?> type : types) {
            String[] names;
            try {
                // No eager initialisation: this runs before any bean exists.
                names = beanFactory.getBeanNamesForType(type, true, false);
            } catch (LinkageError e) {
                // Predicting a type touched the very classes that are missing: nothing the application defined.
                continue;
            }
            for (String name : names) {
                if (!beanFactory.containsBeanDefinition(name)) {
                    return true;
                }
                BeanDefinition definition = beanFactory.getBeanDefinition(name);
                String factory = definition.getFactoryBeanName();
                String declaring = factory != null && beanFactory.containsBeanDefinition(factory)
                        ? beanFactory.getBeanDefinition(factory).getBeanClassName() : definition.getBeanClassName();
                if (!isIdgenConfiguration(declaring)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean isIdgenConfiguration(String className) {
        if (className == null) {
            return false;
        }
        int nested = className.indexOf('$');
        String topLevel = nested < 0 ? className : className.substring(0, nested);
        return topLevel.startsWith(OWN_CONFIGURATION + "Idgen") && topLevel.endsWith("Configuration");
    }

    /**
     * An optional dependency: what it is, the artifact to add, and classes that show it is present.
     */
    private record Dependency(String what, String coordinates, String... classes) {

        String missingClass(ClassLoader classLoader) {
            for (String name : classes) {
                if (!ClassUtils.isPresent(name, classLoader)) {
                    return name;
                }
            }
            return null;
        }
    }
}
