package dev.idgen.shardingsphere;

import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.snowflake.SnowflakeGenerator;
import dev.idgen.forms.shard.ShardPosition;
import dev.idgen.forms.shard.ShardedSnowflake;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Properties;
import org.apache.shardingsphere.sharding.api.sharding.standard.PreciseShardingValue;
import org.apache.shardingsphere.sharding.api.sharding.standard.RangeShardingValue;
import org.apache.shardingsphere.sharding.api.sharding.standard.StandardShardingAlgorithm;

/**
 * ShardingSphere's standard sharding algorithm of type {@value #TYPE}: routes a row by the shard idgen's shard form
 * put in its ID, or by the shard of its shard key, with {@link ShardedSnowflake}'s rule (physical shard {@code p} of
 * {@code n} owns a contiguous range of the logical shards). So a customer table sharded by the customer's key and an
 * orders table sharded by order ID, whose IDs were taken with that customer's key, keep a customer's orders on the
 * customer's shard with no lookup table.
 *
 * <p>The target is picked from ShardingSphere's available targets in their configured order ({@code ds_0},
 * {@code ds_1}, ...): physical shard {@code p} is the {@code p}-th. Props {@code column-holds} (required) says what the
 * column holds, since the Java type a value is bound with does not: with {@code id} every value (a number, or a string
 * of a decimal 64-bit ID, as a JSON-string ID is bound) is routed by the shard the ID carries; with {@code key} every
 * value's string form (a number's decimal) is hashed as a shard key. Props {@code logical-shards} and
 * {@code layout} must be the generator's ({@code idgen.generators.<name>.shard.*}). Range conditions go to every
 * target: an ID's shard is not ordered with the ID.
 */
public final class IdgenShardingAlgorithm implements StandardShardingAlgorithm<Comparable<?>> {

    /** The algorithm's type in ShardingSphere's rule configuration. */
    public static final String TYPE = "IDGEN_SHARD";

    static final String LOGICAL_SHARDS = "logical-shards";
    static final String LAYOUT = "layout";
    static final String COLUMN_HOLDS = "column-holds";

    /** Where the generator put the shard bits: idgen's {@code shard.layout}. */
    enum Layout {
        GENE,
        INSTAGRAM
    }

    /** What the sharding column holds, whatever Java type its value is bound with. */
    enum ColumnHolds {
        ID,
        KEY
    }

    private ShardedSnowflake shards;
    private ColumnHolds holds;

    @Override
    public void init(Properties props) {
        AlgorithmProps read = new AlgorithmProps(TYPE, props);
        int logicalShards = read.integer(LOGICAL_SHARDS, 1024, 2, ShardedSnowflake.MAX_LOGICAL_SHARDS);
        if (Integer.bitCount(logicalShards) != 1) {
            throw read.invalid(
                    LOGICAL_SHARDS,
                    logicalShards,
                    "must be a power of two from 2 to " + ShardedSnowflake.MAX_LOGICAL_SHARDS
                            + ", the generator's idgen.generators.<name>.shard.logical-shards");
        }
        Layout layout = read.choice(LAYOUT, Layout.class, Layout.GENE);
        holds = read.choice(COLUMN_HOLDS, ColumnHolds.class, null);
        if (holds == null) {
            // No default: guessed from the bound value's Java type, an ID bound as a string (or a key bound as a
            // number) would silently go to the wrong shard.
            throw read.invalid(
                    COLUMN_HOLDS,
                    null,
                    "is required: id (the column holds idgen IDs, numbers or decimal strings) or key (the column holds"
                            + " shard keys, hashed as strings)");
        }
        // Routing only reads IDs; this generator, on a fixed worker id, never issues one. Its layout is the one the
        // starter gives a shard-form generator (ShardedSnowflake.defaultLayout).
        SnowflakeGenerator layoutOnly = SnowflakeGenerator.builder()
                .layout(ShardedSnowflake.defaultLayout(logicalShards))
                .workerId(0)
                .build();
        shards = ShardedSnowflake.builder()
                .generator(layoutOnly)
                .logicalShards(logicalShards)
                .position(layout == Layout.INSTAGRAM ? ShardPosition.AFTER_TIMESTAMP : ShardPosition.LOW)
                .build();
    }

    @Override
    public String doSharding(Collection<String> availableTargetNames, PreciseShardingValue<Comparable<?>> value) {
        List<String> targets = new ArrayList<>(availableTargetNames);
        Object raw = value.getValue();
        int shard;
        try {
            if (holds == ColumnHolds.KEY) {
                shard = shards.shardOf(key(raw, value), targets.size());
            } else {
                shard = shards.shardOf(id(raw, value), targets.size());
            }
        } catch (InvalidArgumentException e) {
            throw new InvalidArgumentException(
                    e.argument(),
                    e.value(),
                    TYPE + " algorithm: " + where(value) + " = " + raw + " cannot be routed over " + targets
                            + " by a shard-form generator of " + shards.logicalShards() + " logical shards ("
                            + AlgorithmProps.name(
                                    shards.position() == ShardPosition.LOW ? Layout.GENE : Layout.INSTAGRAM)
                            + " layout): " + e.getMessage());
        }
        return targets.get(shard);
    }

    @Override
    public Collection<String> doSharding(
            Collection<String> availableTargetNames, RangeShardingValue<Comparable<?>> shardingValue) {
        return availableTargetNames;
    }

    @Override
    public String getType() {
        return TYPE;
    }

    private static String key(Object raw, PreciseShardingValue<?> value) {
        if (raw instanceof CharSequence text) {
            return text.toString();
        }
        if (raw instanceof Long || raw instanceof Integer || raw instanceof Short || raw instanceof Byte) {
            return Long.toString(((Number) raw).longValue());
        }
        if (raw instanceof BigInteger big) {
            return big.toString();
        }
        if (raw instanceof BigDecimal decimal) {
            return decimal.toPlainString();
        }
        throw new InvalidArgumentException(
                "key",
                raw,
                TYPE + " algorithm: " + where(value) + " is a "
                        + (raw == null ? "null" : raw.getClass().getName())
                        + ", not a shard key (a string or a whole number) for props." + COLUMN_HOLDS + "=key");
    }

    private static long id(Object raw, PreciseShardingValue<?> value) {
        if (raw instanceof Long || raw instanceof Integer || raw instanceof Short || raw instanceof Byte) {
            return ((Number) raw).longValue();
        }
        try {
            if (raw instanceof BigInteger big) {
                return big.longValueExact();
            }
            if (raw instanceof BigDecimal decimal) {
                return decimal.longValueExact();
            }
            if (raw instanceof CharSequence text) {
                return Long.parseLong(text.toString().trim());
            }
        } catch (ArithmeticException | NumberFormatException e) {
            throw new InvalidArgumentException(
                    "id",
                    raw,
                    TYPE + " algorithm: " + where(value) + " = '" + raw + "' is not a decimal 64-bit ID (props."
                            + COLUMN_HOLDS + "=id)");
        }
        throw new InvalidArgumentException(
                "id",
                raw,
                TYPE + " algorithm: " + where(value) + " is a "
                        + (raw == null ? "null" : raw.getClass().getName())
                        + ", not an ID (a number or a decimal string) for props." + COLUMN_HOLDS + "=id");
    }

    private static String where(PreciseShardingValue<?> value) {
        return value.getLogicTableName() + "." + value.getColumnName();
    }
}
