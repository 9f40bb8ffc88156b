package dev.idgen.spring.boot.autoconfigure.segment;

import dev.idgen.core.IdService;
import dev.idgen.core.NameLimit;
import dev.idgen.core.TimeSource;
import dev.idgen.core.segment.SegmentIdService;
import dev.idgen.core.segment.SegmentSettings;
import dev.idgen.core.segment.SegmentStartFloor;
import dev.idgen.core.segment.SegmentStore;
import dev.idgen.jdbc.SqlIdentifiers;
import dev.idgen.redis.DualSegmentStore;
import dev.idgen.redis.RedisSegmentStore;
import dev.idgen.spring.boot.autoconfigure.core.ConditionalOnIdgenStrategy;
import dev.idgen.spring.boot.autoconfigure.core.ConsensusEngine;
import dev.idgen.spring.boot.autoconfigure.core.IdgenGeneratorFactory;
import dev.idgen.spring.boot.autoconfigure.core.IdgenGenerators;
import dev.idgen.spring.boot.autoconfigure.core.IdgenProperties;
import dev.idgen.spring.boot.autoconfigure.core.IdgenStoreUsers;
import dev.idgen.spring.boot.autoconfigure.core.StoreChoice;
import dev.idgen.spring.boot.autoconfigure.core.StoreName;
import dev.idgen.spring.boot.autoconfigure.diagnostics.IdgenStartupException;
import dev.idgen.spring.boot.autoconfigure.diagnostics.InvalidIdgenProperty;
import dev.idgen.spring.boot.autoconfigure.jdbc.JdbcProperties;
import dev.idgen.spring.boot.autoconfigure.jdbc.SegmentTables;
import dev.idgen.spring.boot.autoconfigure.jdbc.StartFloors;
import dev.idgen.spring.boot.autoconfigure.redis.RedisBackendConfiguration;
import dev.idgen.spring.boot.autoconfigure.redis.RedisProperties;
import dev.idgen.spring.boot.autoconfigure.remote.RemoteConfiguration;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import javax.sql.DataSource;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * The {@code segment} strategy: a {@link SegmentIdService} over a {@link SegmentStore}. The default generator's store
 * is a bean (by default the JDBC store on the application's {@link DataSource}) the application may
 * replace; a named generator builds the store its {@code segment.store} names.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnIdgenStrategy(IdgenProperties.Strategy.SEGMENT)
@Import({SegmentConfiguration.JdbcStoreConfiguration.class, SegmentConfiguration.RedisStoreConfiguration.class})
public class SegmentConfiguration {

    private static final Log log = LogFactory.getLog(SegmentConfiguration.class);

    /**
     * idgen's own stores of the strategy's own values, which keep the marks of {@link StoreHistory} (an engine's store
     * says so itself: {@link ConsensusEngine#isOwnSegmentStore}); by name, since each is on the class path only with
     * its module. An application's own store, and idgen servers (whose names are checked), keep none.
     */
    private static final Set<String> MARKED_STORES = Set.of(
            "dev.idgen.jdbc.JdbcSegmentStore",
            "dev.idgen.jdbc.TinyidSegmentStore",
            "dev.idgen.redis.RedisSegmentStore",
            "dev.idgen.redis.DualSegmentStore");

    @Bean
    IdgenGeneratorFactory idgenSegmentGenerators(
            ObjectProvider<SegmentStore> defaultStore, BeanFactory beans, TimeSource timeSource) {
        return new IdgenGeneratorFactory() {

            @Override
            public IdgenProperties.Strategy strategy() {
                return IdgenProperties.Strategy.SEGMENT;
            }

            @Override
            public IdService create(IdgenGenerators.Definition definition) {
                SegmentSettings settings = InvalidIdgenProperty.rethrowAsProperty(
                        definition.property("segment"), () -> settings(definition.settings(SegmentProperties.SECTION)));
                int maxNames = InvalidIdgenProperty.rethrowAsProperty(
                        definition.prefix(),
                        () -> NameLimit.check(definition.properties().getMaxNames()));
                SegmentStore store = SegmentServers.configured(definition)
                        ? SegmentServers.store(definition, beans)
                        : definition.isDefault() ? defaultStore.getIfAvailable() : store(definition, beans);
                if (store == null) {
                    throw new IdgenStartupException(
                            definition.strategySetting() + " needs a segment store, but there"
                                    + " is no single DataSource bean",
                            "Add org.springframework.boot:spring-boot-starter-jdbc and"
                                    + " a JDBC driver, and set spring.datasource.url"
                                    + (definition.isDefault() ? "; or declare a SegmentStore bean" : ""));
                }
                SegmentStartFloor startFloor = startFloor(definition, store, defaultStore, beans, timeSource);
                return SegmentIdService.builder(store)
                        .settings(settings)
                        .timeSource(timeSource)
                        .maxNames(maxNames)
                        .startFloor(startFloor)
                        .build();
            }
        };
    }

    /**
     * Where each name starts: the settings' floors and, during a store switch, what the previous store handed out;
     * behind the check of where the generator's names lived before ({@link StoreHistory}), which runs here first.
     */
    private static SegmentStartFloor startFloor(
            IdgenGenerators.Definition definition,
            SegmentStore store,
            ObjectProvider<SegmentStore> defaultStore,
            BeanFactory beans,
            TimeSource timeSource) {
        SegmentProperties segment = definition.settings(SegmentProperties.SECTION);
        String prefix = definition.property("segment");
        StoreName from = segment.getSwitchFrom();
        boolean servers = SegmentServers.configured(definition);
        if (from != null && from.equals(segment.getStore()) && !servers) {
            throw new InvalidConfigurationPropertyValueException(
                    prefix + ".switch-from",
                    from.value(),
                    "is the store the generator is on (" + SegmentStrategy.storeSetting(definition)
                            + "): name the store its names were on before, or remove it once the switch is done");
        }
        SegmentStore previous = from == null ? null : store(from, definition, beans);
        if (from != null && previous == null) {
            throw IdgenStartupException.missingDataSource(
                    prefix + ".switch-from=jdbc", "remove " + prefix + ".switch-from");
        }
        DataSource dataSource = beans.getBeanProvider(DataSource.class).getIfUnique();
        Duration timeout = definition.settings(JdbcProperties.SECTION).checkedTimeout(definition.property("jdbc"));
        StartFloors.Builder floors = StartFloors.builder(prefix)
                .startAbove(segment.getStartAbove())
                .dataSource(dataSource, timeout)
                .previous(previous, prefix + ".switch-from=" + (from == null ? null : from.value()));
        segment.getNames()
                .forEach((name, start) -> floors.name(
                        name,
                        start == null ? null : start.getStartAbove(),
                        start == null ? null : start.getStartAboveMaxOf()));
        SegmentStartFloor settings = floors.build();
        IdgenStoreUsers users = beans.getBean(IdgenStoreUsers.class);
        boolean marks = !servers && marked(store, users);
        List<StoreHistory.OtherStore> others = new ArrayList<>();
        StoreName own = servers ? null : segment.getStore();
        // A Redis store keeps its windows in the segment table or an engine: that is its own store, not another.
        StoreName windows = own != null && SegmentProperties.usesRedis(own)
                ? definition.settings(RedisProperties.SECTION).getWindowStore()
                : null;
        if (!SegmentProperties.JDBC.equals(own)
                && !servers
                && dataSource != null
                && !RedisProperties.JDBC.equals(windows)) {
            JdbcProperties jdbc = definition.settings(JdbcProperties.SECTION);
            String table = InvalidIdgenProperty.rethrowAsProperty(
                    definition.property("jdbc.table"),
                    () -> SqlIdentifiers.checkTable("table", SegmentTables.table(jdbc)));
            others.add(StoreHistory.segmentTable(
                    "jdbc (table " + table + ")",
                    dataSource,
                    table,
                    SegmentTables.keyColumn(jdbc),
                    () -> SegmentTables.existingTableStore(definition, dataSource),
                    definition.isDefault()));
        }
        IdgenGenerators generators = beans.getBean(IdgenGenerators.class);
        long highestInitial = definition.settings(JdbcProperties.SECTION).getInitialValue();
        for (ConsensusEngine engine : users.engines()) {
            highestInitial = Math.max(highestInitial, engine.initialValue(generators));
            // Another engine some generator uses (for anything) may hold this generator's names from before.
            if (!engine.name().equals(own)
                    && !engine.name().equals(windows)
                    && engine.roles().contains(StoreChoice.Role.SEGMENTS)
                    && !users.consensusUsers(generators, engine).isEmpty()) {
                SegmentStore other = engine.segmentStore(beans);
                others.add(new StoreHistory.OtherStore(engine.name().value(), StoreHistory.marksOf(other)));
            }
        }
        boolean markedPrevious = previous != null && marked(previous, users);
        if (highestInitial >= StoreHistory.STAMP_BASE / 4) {
            // A counter never stamped would read as a stamp: no marks, and a switch goes unseen. Said, not refused.
            log.warn("Generator '" + definition.name() + "': an initial-value of " + highestInitial + " (2^48 or more)"
                    + " leaves no room for the marks that tell a store switch (docs/switching.md): a switch of its"
                    + " store is not seen, so set " + prefix + ".switch-from yourself when you switch");
            marks = false;
            others.clear();
            markedPrevious = false;
        }
        StoreHistory history = new StoreHistory(
                definition.name(),
                servers ? "its segment servers" : segment.getStore().value(),
                servers ? "servers" : segment.getStore().value(),
                store,
                marks,
                others,
                markedPrevious ? new StoreHistory.OtherStore(from.value(), StoreHistory.marksOf(previous)) : null,
                from != null || segment.getStartAbove() != null,
                "Set " + prefix + ".switch-from to the store the generator's names are on now (jdbc, redis, dual,"
                        + " etcd, zookeeper or remote, reachable with its usual settings), so that each name starts"
                        + " above what it handed out; or " + prefix + ".start-above to an ID above every ID the"
                        + " generator has issued. See docs/switching.md",
                () -> copyNames(definition, previous, store, settings),
                timeSource);
        history.checkAtStartup();
        return name -> {
            history.checkBeforeLoad();
            return settings.above(name);
        };
    }

    /**
     * A store switch's copy: every name the previous store lists is raised in the new one above what the previous
     * store handed out (and above its other floors), so that no name depends on switch-from still being set when it
     * is first used. A previous store that cannot list its names (Redis, idgen servers) leaves each name to its first
     * load, which reads it then.
     */
    private static void copyNames(
            IdgenGenerators.Definition definition,
            SegmentStore previous,
            SegmentStore store,
            SegmentStartFloor floors) {
        if (previous == null) {
            return;
        }
        Optional<List<String>> names = previous.names();
        if (names.isEmpty()) {
            log.info("Generator '" + definition.name() + "': its previous store cannot list its names; each name"
                    + " reads it on its first load, so keep " + definition.property("segment.switch-from")
                    + " until every name has been served");
            return;
        }
        for (String name : names.get()) {
            store.allocateAbove(name, 1, floors.above(name));
        }
        log.info("Generator '" + definition.name() + "': " + names.get().size() + " names raised above what "
                + definition.settings(SegmentProperties.SECTION).getSwitchFrom().value() + " handed out; "
                + definition.property("segment.switch-from") + " may now be removed");
    }

    /** Whether {@code store} is one of idgen's own, whose counters carry the marks of a store switch. */
    private static boolean marked(SegmentStore store, IdgenStoreUsers users) {
        if (MARKED_STORES.contains(store.getClass().getName())) {
            return true;
        }
        for (ConsensusEngine engine : users.engines()) {
            if (engine.isOwnSegmentStore(store)) {
                return true;
            }
        }
        return false;
    }

    /** A named generator's store, or null when its database is missing. */
    private static SegmentStore store(IdgenGenerators.Definition definition, BeanFactory beans) {
        return store(definition.settings(SegmentProperties.SECTION).getStore(), definition, beans);
    }

    /** The store of type {@code type} with the generator's settings, or null when its database is missing. */
    private static SegmentStore store(StoreName type, IdgenGenerators.Definition definition, BeanFactory beans) {
        if (SegmentProperties.usesRedis(type)) {
            return redisStore(definition, beans);
        }
        if (SegmentProperties.REMOTE.equals(type)) {
            return RemoteConfiguration.segmentStore(beans);
        }
        if (SegmentProperties.JDBC.equals(type)) {
            DataSource dataSource = beans.getBeanProvider(DataSource.class).getIfUnique();
            return dataSource == null
                    ? null
                    : SegmentTables.store(definition, dataSource, definition.strategySetting());
        }
        return beans.getBean(IdgenStoreUsers.class).requireEngine(type).segmentStore(beans);
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnIdgenStrategy(value = IdgenProperties.Strategy.SEGMENT, defaultOnly = true)
    @ConditionalOnSingleCandidate(DataSource.class)
    @ConditionalOnProperty(name = "idgen.segment.store", havingValue = "jdbc", matchIfMissing = true)
    static class JdbcStoreConfiguration {

        @Bean
        @ConditionalOnMissingBean
        SegmentStore idgenSegmentStore(DataSource dataSource, IdgenGenerators generators) {
            return SegmentTables.store(
                    generators.defaultGenerator(),
                    dataSource,
                    generators.defaultGenerator().strategySetting());
        }
    }

    /**
     * @return the settings, checked by the core
     */
    static SegmentSettings settings(SegmentProperties segment) {
        SegmentSettings.Builder builder = SegmentSettings.builder()
                .step(segment.getStep())
                .maxStep(segment.getMaxStep())
                .bufferDuration(segment.getBufferDuration())
                .preloadThreshold(segment.getPreloadThreshold())
                .awaitTimeout(segment.getAwaitTimeout())
                .stripeSize(segment.getStripeSize())
                .firstLoadTimeout(segment.getFirstLoadTimeout());
        if (segment.getMinStep() != null) {
            builder.minStep(segment.getMinStep());
        }
        return builder.build();
    }

    /**
     * The default generator's segment store when {@code idgen.segment.store} is {@code redis} or {@code dual}.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(
            name = {
                "org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory",
                "io.lettuce.core.RedisClient"
            })
    @ConditionalOnIdgenStrategy(value = IdgenProperties.Strategy.SEGMENT, defaultOnly = true)
    static class RedisStoreConfiguration {

        @Bean
        @ConditionalOnMissingBean(SegmentStore.class)
        @Conditional(RedisStoreSelected.class)
        SegmentStore idgenSegmentStore(BeanFactory beans, IdgenGenerators generators) {
            return redisStore(generators.defaultGenerator(), beans);
        }
    }

    /**
     * A generator's Redis or dual segment store.
     */
    static SegmentStore redisStore(IdgenGenerators.Definition definition, BeanFactory beans) {
        String feature = SegmentStrategy.storeSetting(definition);
        SegmentStore database = RedisBackendConfiguration.windowStore(definition, beans, feature);
        RedisSegmentStore store = new RedisSegmentStore(RedisBackendConfiguration.counter(definition, database, beans));
        return SegmentProperties.DUAL.equals(
                        definition.settings(SegmentProperties.SECTION).getStore())
                ? new DualSegmentStore(store, database)
                : store;
    }

    /**
     * Matches {@code idgen.segment.store=redis} or {@code dual}.
     */
    static final class RedisStoreSelected extends SpringBootCondition {

        @Override
        public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
            String store = context.getEnvironment().getProperty("idgen.segment.store", "jdbc");
            boolean redis = "redis".equalsIgnoreCase(store) || "dual".equalsIgnoreCase(store);
            return redis
                    ? ConditionOutcome.match("idgen.segment.store=" + store)
                    : ConditionOutcome.noMatch("idgen.segment.store=" + store);
        }
    }
}
