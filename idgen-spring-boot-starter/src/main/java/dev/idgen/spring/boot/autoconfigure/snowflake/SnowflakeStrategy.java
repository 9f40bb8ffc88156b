package dev.idgen.spring.boot.autoconfigure.snowflake;

import dev.idgen.core.IdService;
import dev.idgen.core.lease.RenewingWorkerIdLease;
import dev.idgen.core.snowflake.SnowflakeGenerator;
import dev.idgen.core.snowflake.SnowflakeIdService;
import dev.idgen.core.spi.StaticWorkerIdAssigner;
import dev.idgen.core.spi.WorkerIdAssigner;
import dev.idgen.core.spi.WorkerIdLease;
import dev.idgen.core.spi.WorkerIdLeaseStore;
import dev.idgen.spring.boot.autoconfigure.core.IdgenDependency;
import dev.idgen.spring.boot.autoconfigure.core.IdgenGeneratorHealth;
import dev.idgen.spring.boot.autoconfigure.core.IdgenGeneratorMeters;
import dev.idgen.spring.boot.autoconfigure.core.IdgenGenerators;
import dev.idgen.spring.boot.autoconfigure.core.IdgenSettings;
import dev.idgen.spring.boot.autoconfigure.core.IdgenStrategy;
import dev.idgen.spring.boot.autoconfigure.core.StoreChoice;
import dev.idgen.spring.boot.autoconfigure.core.StoreName;
import dev.idgen.spring.boot.autoconfigure.jdbc.JdbcProperties;
import dev.idgen.spring.boot.autoconfigure.zookeeper.ZooKeeperEngine;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code snowflake} strategy: no server at run time; a worker id that is static, read from an ordinal, or leased
 * from a database or Redis.
 */
public final class SnowflakeStrategy implements IdgenStrategy {

    /** For messages: for example {@code idgen.generators.invoice.snowflake.worker-id-assigner=leaf-zookeeper}. */
    public static String workerIdAssignerSetting(IdgenGenerators.Definition definition) {
        return workerIdAssignerChoice(definition).setting();
    }

    /** The setting that chooses where a generator's worker id comes from. */
    private static StoreChoice workerIdAssignerChoice(IdgenGenerators.Definition definition) {
        // leaf-zookeeper registers with Leaf's own nodes, on the ZooKeeper engine's client.
        return new StoreChoice(
                definition.property("snowflake.worker-id-assigner"),
                assigner(definition),
                StoreChoice.Role.LEASES,
                SnowflakeProperties.OWN_ASSIGNERS,
                SnowflakeProperties.LEAF_ZOOKEEPER.equals(assigner(definition)) ? ZooKeeperEngine.NAME : null);
    }

    @Override
    public Class<?> configuration() {
        return SnowflakeConfiguration.class;
    }

    @Override
    public List<IdgenSettings<?>> sections() {
        return List.of(SnowflakeProperties.SECTION);
    }

    @Override
    public List<Requirement> requirements(IdgenGenerators.Definition definition) {
        if (!SnowflakeProperties.REDIS.equals(assigner(definition))) {
            return List.of();
        }
        return List.of(Requirement.of(
                IdgenDependency.REDIS,
                SnowflakeStrategy.workerIdAssignerSetting(definition),
                definition,
                WorkerIdLeaseStore.class,
                WorkerIdAssigner.class));
    }

    @Override
    public List<StoreChoice> storeChoices(IdgenGenerators.Definition definition) {
        return List.of(workerIdAssignerChoice(definition));
    }

    @Override
    public List<TableClaim> tables(IdgenGenerators.Definition definition) {
        if (!SnowflakeProperties.JDBC.equals(assigner(definition))) {
            return List.of();
        }
        return List.of(new TableClaim(
                definition.settings(JdbcProperties.SECTION).getWorkerTable(),
                "worker id lease",
                definition.property("jdbc.worker-table")));
    }

    @Override
    public String redisUse(IdgenGenerators.Definition definition) {
        return SnowflakeProperties.REDIS.equals(assigner(definition))
                ? SnowflakeStrategy.workerIdAssignerSetting(definition)
                : null;
    }

    @Override
    public String store(IdgenGenerators.Definition definition) {
        // A fixed worker id is kept nowhere.
        StoreName assigner = assigner(definition);
        return SnowflakeProperties.STATIC.equals(assigner) ? null : assigner.value();
    }

    @Override
    public IdgenGeneratorHealth health() {
        return new SnowflakeHealth();
    }

    @Override
    public IdgenGeneratorMeters meters() {
        return new SnowflakeMeters();
    }

    @Override
    public String describeAtStartup(IdService backend) {
        if (!(backend instanceof SnowflakeIdService snowflake)) {
            return null;
        }
        SnowflakeGenerator generator = snowflake.generator();
        StringBuilder line = new StringBuilder("workerId=").append(generator.workerId());
        if (generator.lease() instanceof RenewingWorkerIdLease lease) {
            line.append(" (leased as '")
                    .append(lease.owner())
                    .append("', ")
                    .append(lease.remaining().toMillis())
                    .append(" ms left, renewed by a heartbeat)");
        } else if (generator.lease().getClass().getNestHost() == StaticWorkerIdAssigner.class) {
            line.append(" (static: idgen.snowflake.worker-id; unique per running instance)");
        } else {
            line.append(" (").append(generator.lease()).append(')');
        }
        return line.append(", layout=").append(generator.layout()).toString();
    }

    @Override
    public void describe(IdService backend, Map<String, Object> detail) {
        if (!(backend instanceof SnowflakeIdService snowflake)) {
            return;
        }
        SnowflakeGenerator generator = snowflake.generator();
        WorkerIdLease lease = generator.lease();
        detail.put("workerId", lease.workerId());
        if (lease instanceof RenewingWorkerIdLease renewing) {
            Map<String, Object> leased = new LinkedHashMap<>();
            leased.put("owner", renewing.owner());
            leased.put("valid", renewing.isValid());
            leased.put("timeLeft", nonNegative(renewing.remaining()).toString());
            leased.put("renewals", renewing.renewals());
            leased.put("renewalFailures", renewing.renewalFailures());
            if (renewing.lastProblem() != null) {
                leased.put("lastProblem", renewing.lastProblem());
            }
            detail.put("lease", leased);
        }
        detail.put(
                "lastTimestamp",
                Instant.ofEpochMilli(generator.lastTimestampMillis()).toString());
        Map<String, Object> layout = new LinkedHashMap<>();
        layout.put("exhaustsAt", generator.layout().exhaustedAt().toString());
        layout.put(
                "remainingLifetimeDays",
                Math.max(0, generator.remainingLifetime().toDays()));
        detail.put("layout", layout);
        detail.put("clockBehindMillis", generator.clockBehindMillis());
        detail.put("closed", generator.isClosed());
    }

    private static StoreName assigner(IdgenGenerators.Definition definition) {
        return definition.settings(SnowflakeProperties.SECTION).getWorkerIdAssigner();
    }

    private static Duration nonNegative(Duration duration) {
        return duration.isNegative() ? Duration.ZERO : duration;
    }
}
