package dev.idgen.spring.boot.autoconfigure;

import dev.idgen.spring.boot.autoconfigure.core.IdgenProperties;
import dev.idgen.spring.boot.autoconfigure.core.IdgenStrategy;
import dev.idgen.spring.boot.autoconfigure.redis.RedisStrategy;
import dev.idgen.spring.boot.autoconfigure.segment.SegmentStrategy;
import dev.idgen.spring.boot.autoconfigure.snowflake.SnowflakeStrategy;
import dev.idgen.spring.boot.autoconfigure.ticket.TicketStrategy;

/**
 * The one place that maps each {@link IdgenProperties.Strategy} value to its wiring, its {@link IdgenStrategy}: the
 * properties enum is data, and names nothing of a strategy's configuration. The switch is exhaustive, so a constant
 * added to the enum without its line here does not compile.
 */
public final class IdgenStrategies {

    private static final IdgenStrategy SNOWFLAKE = new SnowflakeStrategy();

    private static final IdgenStrategy SEGMENT = new SegmentStrategy();

    private static final IdgenStrategy TICKET = new TicketStrategy();

    private static final IdgenStrategy REDIS = new RedisStrategy();

    private IdgenStrategies() {}

    /**
     * @param strategy a value of {@code idgen.strategy}
     * @return what the strategy is: its configuration, requirements, tables, health, meters, ...
     */
    public static IdgenStrategy of(IdgenProperties.Strategy strategy) {
        return switch (strategy) {
            case SNOWFLAKE -> SNOWFLAKE;
            case SEGMENT -> SEGMENT;
            case TICKET -> TICKET;
            case REDIS -> REDIS;
        };
    }
}
