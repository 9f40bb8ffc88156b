package dev.idgen.spring.boot.autoconfigure.snowflake;

import dev.idgen.core.IdService;
import dev.idgen.core.LayoutExhaustedException;
import dev.idgen.core.TimeSource;
import dev.idgen.core.WorkerIdsExhaustedException;
import dev.idgen.core.lease.LeasingWorkerIdAssigner;
import dev.idgen.core.snowflake.SnowflakeGenerator;
import dev.idgen.core.snowflake.SnowflakeIdService;
import dev.idgen.core.snowflake.SnowflakeLayout;
import dev.idgen.core.snowflake.WorkerIdRanges;
import dev.idgen.core.spi.StaticWorkerIdAssigner;
import dev.idgen.core.spi.WorkerIdAssigner;
import dev.idgen.core.spi.WorkerIdLeaseStore;
import dev.idgen.spring.boot.autoconfigure.core.ConditionalOnIdgenStrategy;
import dev.idgen.spring.boot.autoconfigure.core.ConsensusEngine;
import dev.idgen.spring.boot.autoconfigure.core.IdgenGeneratorFactory;
import dev.idgen.spring.boot.autoconfigure.core.IdgenGenerators;
import dev.idgen.spring.boot.autoconfigure.core.IdgenProperties;
import dev.idgen.spring.boot.autoconfigure.core.IdgenStoreUsers;
import dev.idgen.spring.boot.autoconfigure.core.StoreName;
import dev.idgen.spring.boot.autoconfigure.diagnostics.IdgenPropertyValueException;
import dev.idgen.spring.boot.autoconfigure.diagnostics.IdgenStartupException;
import dev.idgen.spring.boot.autoconfigure.diagnostics.InvalidIdgenProperty;
import dev.idgen.spring.boot.autoconfigure.jdbc.JdbcLeaseConfiguration;
import dev.idgen.spring.boot.autoconfigure.jdbc.JdbcProperties;
import dev.idgen.spring.boot.autoconfigure.redis.RedisBackendConfiguration;
import dev.idgen.spring.boot.autoconfigure.redis.RedisProperties;
import java.util.Map;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import javax.sql.DataSource;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * The {@code snowflake} strategy: the default generator's {@link WorkerIdAssigner} and {@link SnowflakeGenerator} as
 * beans the application may replace, and Snowflake generators of their own for {@code idgen.generators.<name>}.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnIdgenStrategy(IdgenProperties.Strategy.SNOWFLAKE)
public class SnowflakeConfiguration {

    @Bean
    IdgenGeneratorFactory idgenSnowflakeGenerators(
            ObjectProvider<SnowflakeGenerator> defaultGenerator,
            BeanFactory beans,
            TimeSource timeSource,
            Environment environment) {
        return new IdgenGeneratorFactory() {

            @Override
            public IdgenProperties.Strategy strategy() {
                return IdgenProperties.Strategy.SNOWFLAKE;
            }

            @Override
            public IdService create(IdgenGenerators.Definition definition) {
                if (definition.isDefault()) {
                    return SnowflakeIdService.of(defaultGenerator.getObject());
                }
                WorkerIdLeaseStore store = leaseStore(definition, beans);
                WorkerIdAssigner assigner = assigner(definition, store, timeSource, environment::getProperty, beans);
                try {
                    return SnowflakeIdService.of(generator(
                            definition,
                            assigner,
                            timeSource,
                            () -> beans.getBeanProvider(DataSource.class).getIfUnique()));
                } catch (RuntimeException e) {
                    if (assigner instanceof AutoCloseable closeable) {
                        try {
                            closeable.close();
                        } catch (Exception suppressed) {
                            e.addSuppressed(suppressed);
                        }
                    }
                    throw e;
                }
            }
        };
    }

    /**
     * The default generator's pieces, as beans.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnIdgenStrategy(value = IdgenProperties.Strategy.SNOWFLAKE, defaultOnly = true)
    static class DefaultGeneratorConfiguration {

        @Bean
        @ConditionalOnMissingBean
        WorkerIdAssigner idgenWorkerIdAssigner(
                IdgenProperties properties,
                ObjectProvider<WorkerIdLeaseStore> leaseStores,
                TimeSource timeSource,
                IdgenGenerators generators,
                Environment environment,
                BeanFactory beans) {
            IdgenGenerators.Definition definition = generators.defaultGenerator();
            WorkerIdLeaseStore store = SnowflakeProperties.leases(
                            definition.settings(SnowflakeProperties.SECTION).getWorkerIdAssigner())
                    ? leaseStores.getIfUnique()
                    : null;
            return assigner(definition, store, timeSource, environment::getProperty, beans);
        }

        @Bean
        @ConditionalOnMissingBean
        SnowflakeGenerator idgenSnowflakeGenerator(
                WorkerIdAssigner workerIdAssigner,
                TimeSource timeSource,
                IdgenGenerators generators,
                ObjectProvider<DataSource> dataSources) {
            return generator(generators.defaultGenerator(), workerIdAssigner, timeSource, dataSources::getIfUnique);
        }
    }

    /**
     * @param store the lease store, or null: needed when the assigner leases
     * @param environment where the ordinal assigner reads HOSTNAME and its variable: Spring's environment, which holds
     *        the process's environment variables and lets a property stand in for one
     * @param beans where the leaf-zookeeper assigner finds the ZooKeeper client
     */
    static WorkerIdAssigner assigner(
            IdgenGenerators.Definition definition,
            WorkerIdLeaseStore store,
            TimeSource timeSource,
            UnaryOperator<String> environment,
            BeanFactory beans) {
        SnowflakeProperties snowflake = definition.settings(SnowflakeProperties.SECTION);
        String prefix = definition.property("snowflake");
        if (SnowflakeProperties.STATIC.equals(snowflake.getWorkerIdAssigner())) {
            long workerId = snowflake.getWorkerId();
            StaticWorkerIdAssigner assigner =
                    InvalidIdgenProperty.rethrowAsProperty(prefix, () -> new StaticWorkerIdAssigner(workerId));
            if (SnowflakeSwitch.rolling(definition)) {
                SnowflakeSwitch.refuseOldWorkerId(definition, checkedLayout(definition), workerId);
            }
            return assigner;
        }
        if (SnowflakeProperties.ORDINAL.equals(snowflake.getWorkerIdAssigner())) {
            SnowflakeLayout layout = checkedLayout(definition);
            long workerId = IdgenOrdinalWorkerId.workerId(definition, layout, environment);
            SnowflakeSwitch.refuseOldOrdinal(definition, layout, workerId);
            return new StaticWorkerIdAssigner(workerId);
        }
        if (SnowflakeProperties.LEAF_ZOOKEEPER.equals(snowflake.getWorkerIdAssigner())) {
            return IdgenLeafWorkerId.assigner(definition, beans, environment);
        }
        // Checked before a lease is taken: a rolling switch's layouts must match whatever the assigner.
        WorkerIdRanges oldWorkerIds = SnowflakeSwitch.rolling(definition)
                ? SnowflakeSwitch.oldWorkerIds(definition, checkedLayout(definition))
                : WorkerIdRanges.none();
        if (store == null) {
            String feature = SnowflakeStrategy.workerIdAssignerSetting(definition);
            StoreName type = snowflake.getWorkerIdAssigner();
            if (!SnowflakeProperties.OWN_ASSIGNERS.contains(type)) {
                ConsensusEngine engine = beans.getBean(IdgenStoreUsers.class).requireEngine(type);
                throw new IdgenStartupException(
                        feature + " needs a worker id lease store on " + type + ", but there is none",
                        "Add " + engine.dependency().coordinates() + " and set " + engine.prefix()
                                + ".*; or declare a WorkerIdLeaseStore bean");
            }
            throw SnowflakeProperties.REDIS.equals(type)
                    ? new IdgenStartupException(
                            feature + " needs one Spring Data Redis connection factory",
                            "Add org.springframework.boot:spring-boot-starter-data-redis and set"
                                    + " spring.data.redis.host and spring.data.redis.port")
                    : IdgenStartupException.missingDataSource(feature, null);
        }
        SnowflakeProperties.Lease lease = snowflake.getLease();
        // Each generator holds a lease of its own: a named one's owner differs from the default one's even when
        // they inherit one configured instance id, so that neither renews nor releases the other's lease.
        String instanceId = definition.isDefault() || lease.getInstanceId() == null
                ? lease.getInstanceId()
                : lease.getInstanceId() + "/" + definition.name();
        return InvalidIdgenProperty.rethrowAsProperty(
                prefix + ".lease",
                () -> LeasingWorkerIdAssigner.builder(store)
                        .instanceId(instanceId)
                        .ttl(lease.getTtl())
                        .renewInterval(lease.getRenewInterval())
                        .safetyMargin(lease.getSafetyMargin())
                        .reuseDelay(lease.getReuseDelay())
                        .acquireTimeout(lease.getAcquireTimeout())
                        .timeSource(timeSource)
                        .excludedWorkerIds(oldWorkerIds)
                        .build());
    }

    /**
     * @param dataSource the application's single DataSource, or null: read only for
     *        {@code snowflake.switch.start-above-max-of}
     */
    static SnowflakeGenerator generator(
            IdgenGenerators.Definition definition,
            WorkerIdAssigner workerIdAssigner,
            TimeSource timeSource,
            Supplier<DataSource> dataSource) {
        SnowflakeProperties snowflake = definition.settings(SnowflakeProperties.SECTION);
        String prefix = definition.property("snowflake");
        SnowflakeLayout layout = checkedLayout(definition);
        SnowflakeSwitch.refuseShortLived(definition, layout, timeSource.currentTimeMillis());
        // Checked once, before the first ID: the generator never goes back in time, so IDs above the bound now stay
        // above it.
        SnowflakeSwitch.checkStartAbove(definition, layout, timeSource, dataSource);
        try {
            return InvalidIdgenProperty.rethrowAsProperty(
                    prefix,
                    () -> SnowflakeGenerator.builder()
                            .layout(layout)
                            .workerIdAssigner(workerIdAssigner)
                            .timeSource(timeSource)
                            .maxBorrow(snowflake.getMaxBorrow())
                            .clockBackwardsTolerance(snowflake.getClockBackwardsTolerance())
                            .build());
        } catch (LayoutExhaustedException e) {
            throw new IdgenPropertyValueException(
                    prefix + ".timestamp-bits",
                    layout.timestampBits(),
                    e.getMessage() + " (" + prefix + ".epoch, " + prefix + ".time-unit, " + prefix + ".timestamp-bits)",
                    "Choose a layout that lasts: more " + prefix + ".timestamp-bits (taken from " + prefix
                            + ".worker-bits or " + prefix + ".sequence-bits: the three sum to at most 63), "
                            + prefix + ".time-unit=seconds, or a later " + prefix + ".epoch (at most now). If IDs"
                            + " of an earlier layout are stored, check that the new layout's IDs stay above them");
        } catch (WorkerIdsExhaustedException e) {
            throw workerIdsTaken(definition, layout, e);
        }
    }

    /**
     * A named generator's worker id lease store, or null when its assigner leases none (or its database is missing).
     */
    private static WorkerIdLeaseStore leaseStore(IdgenGenerators.Definition definition, BeanFactory beans) {
        StoreName assigner = definition.settings(SnowflakeProperties.SECTION).getWorkerIdAssigner();
        if (SnowflakeProperties.JDBC.equals(assigner)) {
            return JdbcLeaseConfiguration.store(
                    definition,
                    beans.getBeanProvider(DataSource.class).getIfUnique(),
                    SnowflakeStrategy.workerIdAssignerSetting(definition));
        }
        if (SnowflakeProperties.REDIS.equals(assigner)) {
            return RedisBackendConfiguration.leaseStore(definition, beans);
        }
        if (!SnowflakeProperties.leases(assigner)) {
            return null;
        }
        return beans.getBean(IdgenStoreUsers.class).requireEngine(assigner).leaseStore(beans);
    }

    /**
     * Every worker id is leased by a live instance: which store, what the layout holds, and the ways out.
     */
    private static IdgenStartupException workerIdsTaken(
            IdgenGenerators.Definition definition, SnowflakeLayout layout, WorkerIdsExhaustedException e) {
        SnowflakeProperties snowflake = definition.settings(SnowflakeProperties.SECTION);
        if (SnowflakeProperties.LEAF_ZOOKEEPER.equals(snowflake.getWorkerIdAssigner())) {
            return new IdgenStartupException(
                    SnowflakeStrategy.workerIdAssignerSetting(definition) + " found no usable worker id: "
                            + e.getMessage(),
                    "ZooKeeper never numbers a node of " + definition.property("snowflake.leaf.name")
                            + " lower again: register under a fresh name (Leaf servers and idgen instances alike),"
                            + " with a layout or epoch whose IDs stay above the IDs issued so far",
                    e);
        }
        StoreName assigner = snowflake.getWorkerIdAssigner();
        String store;
        if (SnowflakeProperties.JDBC.equals(assigner)) {
            store = "the worker id lease table "
                    + definition.settings(JdbcProperties.SECTION).getWorkerTable() + " ("
                    + definition.property("jdbc.worker-table") + ")";
        } else if (SnowflakeProperties.REDIS.equals(assigner)) {
            store = "the Redis hash "
                    + definition.settings(RedisProperties.SECTION).getPrefix() + "{workers} ("
                    + definition.property("redis.prefix") + ")";
        } else if (!SnowflakeProperties.OWN_ASSIGNERS.contains(assigner)) {
            store = "the worker id leases in " + assigner + " (idgen." + assigner + ".*)";
        } else {
            store = "the worker id assigner";
        }
        String lease = definition.property("snowflake.lease");
        SnowflakeProperties.Lease settings = snowflake.getLease();
        return new IdgenStartupException(
                SnowflakeStrategy.workerIdAssignerSetting(definition) + " found no free worker id in " + store
                        + ": " + e.getMessage() + " The layout's worker ids are 0 to " + layout.maxWorkerId() + " ("
                        + definition.property("snowflake.worker-bits") + "="
                        + layout.workerBits() + ")",
                "Stop an instance that holds one (an instance that stopped without"
                        + " releasing its lease frees it after " + lease + ".ttl=" + settings.getTtl() + " plus "
                        + lease + ".reuse-delay=" + settings.getReuseDelay() + "), give the layout more worker bits ("
                        + definition.property("snowflake.worker-bits") + ", taken from "
                        + definition.property("snowflake.sequence-bits") + " or timestamp-bits), or let start-up wait"
                        + " longer for one with " + lease + ".acquire-timeout",
                e);
    }

    /**
     * @return the generator's layout
     * @throws InvalidConfigurationPropertyValueException naming
     *         the property that breaks the layout's rules
     */
    static SnowflakeLayout checkedLayout(IdgenGenerators.Definition definition) {
        SnowflakeSwitch.refuseUnproducible(definition);
        SnowflakeProperties snowflake = definition.settings(SnowflakeProperties.SECTION);
        return InvalidIdgenProperty.rethrowAsProperty(
                definition.property("snowflake"),
                Map.of("layoutBits", explicitBitsProperty(snowflake)),
                () -> layout(snowflake).build());
    }

    /**
     * @return the preset with the explicitly set parts applied
     */
    static SnowflakeLayout.Builder layout(SnowflakeProperties snowflake) {
        SnowflakeProperties.Preset preset =
                snowflake.getPreset() != null ? snowflake.getPreset() : SnowflakeProperties.Preset.STANDARD;
        SnowflakeLayout.Builder builder = (switch (preset) {
                    case STANDARD -> SnowflakeLayout.standard();
                    case JAVASCRIPT_SAFE -> SnowflakeLayout.javascriptSafe();
                    // Another library's layout, epoch included (Sonyflake's, which has none, is refused before).
                    default -> SnowflakeSwitch.peer(preset).layout().orElseThrow();
                })
                .toBuilder();
        if (snowflake.getEpoch() != null) {
            builder.epoch(snowflake.getEpoch());
        }
        if (snowflake.getTimeUnit() != null) {
            builder.tickUnit(snowflake.getTimeUnit());
        }
        if (snowflake.getTimestampBits() != null) {
            builder.timestampBits(snowflake.getTimestampBits());
        }
        if (snowflake.getWorkerBits() != null) {
            builder.workerBits(snowflake.getWorkerBits());
        }
        if (snowflake.getSequenceBits() != null) {
            builder.sequenceBits(snowflake.getSequenceBits());
        }
        return builder;
    }

    /**
     * @return the bit-count property the user set explicitly (the one to blame when the three sum over 63)
     */
    static String explicitBitsProperty(SnowflakeProperties snowflake) {
        return snowflake.getSequenceBits() != null
                ? "sequence-bits"
                : snowflake.getWorkerBits() != null
                        ? "worker-bits"
                        : snowflake.getTimestampBits() != null ? "timestamp-bits" : "preset";
    }
}
