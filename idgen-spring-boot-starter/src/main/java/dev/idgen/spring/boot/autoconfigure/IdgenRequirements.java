package dev.idgen.spring.boot.autoconfigure;

import dev.idgen.core.IdService;
import dev.idgen.core.ReadableIdService;
import dev.idgen.core.segment.SegmentStore;
import dev.idgen.core.spi.WorkerIdAssigner;
import dev.idgen.core.spi.WorkerIdLeaseStore;
import dev.idgen.spring.boot.autoconfigure.diagnostics.IdgenStartupException;
import dev.idgen.spring.boot.autoconfigure.segment.SegmentProperties;
import dev.idgen.spring.boot.autoconfigure.snowflake.SnowflakeProperties;
import java.util.Arrays;
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
        IdgenGenerators generators = IdgenGenerators.of(beanFactory, environment);
        ClassLoader classLoader = beanFactory.getBeanClassLoader();
        for (IdgenGenerators.Definition definition : generators.all()) {
            // The default generator's pieces are beans the application may define itself; a named one's are not.
            Class<?>[] own = definition.isDefault() ? new Class<?>[] { IdService.class } : new Class<?>[0];
            switch (definition.strategy()) {
                case SEGMENT -> {
                    boolean jdbc = definition.properties().getSegment().getStore()
                            == SegmentProperties.StoreType.JDBC;
                    String feature = jdbc ? definition.strategySetting() : definition.segmentStoreSetting();
                    Class<?>[] store = definition.isDefault()
                            ? new Class<?>[] { SegmentStore.class, IdService.class } : own;
                    if (!jdbc) {
                        require(REDIS, feature, classLoader, beanFactory, store);
                    }
                    // The Redis stores keep their durable floor in the database too.
                    require(JDBC, feature, classLoader, beanFactory, withDataSource(store));
                }
                case TICKET -> require(JDBC, definition.strategySetting(), classLoader, beanFactory,
                        withDataSource(own));
                case REDIS -> {
                    require(REDIS, definition.strategySetting(), classLoader, beanFactory, own);
                    require(JDBC, definition.strategySetting(), classLoader, beanFactory, withDataSource(own));
                }
                case SNOWFLAKE -> {
                    if (definition.properties().getSnowflake().getWorkerIdAssigner()
                            == SnowflakeProperties.WorkerIdAssignerType.REDIS) {
                        require(REDIS, definition.workerIdAssignerSetting(), classLoader, beanFactory,
                                definition.isDefault() ? new Class<?>[] { WorkerIdLeaseStore.class,
                                        WorkerIdAssigner.class } : own);
                    }
                }
            }
        }
        if (Binder.get(environment).bind("idgen.redis.buckets.enabled", Boolean.class).orElse(false)) {
            require(REDIS, "idgen.redis.buckets.enabled=true", classLoader, beanFactory, ReadableIdService.class);
        }
    }

    /** An application's own DataSource bean also waives spring-boot-jdbc. */
    private static Class<?>[] withDataSource(Class<?>[] pieces) {
        Class<?>[] with = Arrays.copyOf(pieces, pieces.length + 1);
        with[pieces.length] = DataSource.class;
        return with;
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
        return topLevel.startsWith(OWN_CONFIGURATION) && topLevel.endsWith("Configuration");
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
