package dev.idgen.forms.shard;

import dev.idgen.core.DecodedId;
import dev.idgen.core.ForwardingIdService;
import dev.idgen.core.IdService;
import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.snowflake.SnowflakeIdService;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * The {@link IdService} a shard-aware generator stands behind: every one of its Snowflake IDs needs a shard key, so
 * the 64-bit calls without one are refused (take IDs from the form: {@code IdForms.form(name).next(count, shardKey)});
 * {@link #decode(long)} reads the shard too. It forwards to the Snowflake service underneath, which it closes.
 */
public final class ShardedIdService implements ForwardingIdService, AutoCloseable {

    private final SnowflakeIdService snowflake;

    private final ShardedSnowflake sharded;

    /**
     * @param snowflake the Snowflake service whose generator {@code sharded} adds shard bits to
     * @param sharded the shard-aware generator
     */
    public ShardedIdService(SnowflakeIdService snowflake, ShardedSnowflake sharded) {
        if (snowflake == null || sharded == null) {
            throw new IllegalArgumentException("snowflake and sharded must not be null");
        }
        this.snowflake = snowflake;
        this.sharded = sharded;
    }

    /**
     * @return the shard-aware generator, whose form issues the IDs
     */
    public ShardedSnowflake sharded() {
        return sharded;
    }

    @Override
    public IdService delegate() {
        return snowflake;
    }

    @Override
    public String strategy() {
        return snowflake.strategy();
    }

    @Override
    public long nextId(String name) {
        throw needsKey(name);
    }

    @Override
    public long[] nextIds(String name, int count) {
        throw needsKey(name);
    }

    /** Refused at once, as {@link #nextId(String)}: no call to hand to {@code blocking}. */
    @Override
    public CompletableFuture<Long> nextIdAsync(String name, Executor blocking) {
        throw needsKey(name);
    }

    /** Refused at once, as {@link #nextIds(String, int)}. */
    @Override
    public CompletableFuture<long[]> nextIdsAsync(String name, int count, Executor blocking) {
        throw needsKey(name);
    }

    private InvalidArgumentException needsKey(String name) {
        return new InvalidArgumentException(
                "shardKey",
                null,
                "generator '" + name + "' is shard-aware: every" + " ID needs a shard key (IdForms.form(\"" + name
                        + "\").next(count, shardKey))");
    }

    @Override
    public DecodedId decode(long id) {
        Map<String, Object> parts = sharded.decode(id);
        return new DecodedId() {

            @Override
            public String strategy() {
                return snowflake.strategy();
            }

            @Override
            public long id() {
                return id;
            }

            @Override
            public Map<String, Object> toMap() {
                return parts;
            }
        };
    }

    @Override
    public void close() {
        snowflake.close();
    }

    @Override
    public String toString() {
        return "shard(" + sharded + ")";
    }
}
