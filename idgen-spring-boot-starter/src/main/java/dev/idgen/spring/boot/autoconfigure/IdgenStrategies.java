package dev.idgen.spring.boot.autoconfigure;

import dev.idgen.spring.boot.autoconfigure.core.IdgenGenerators;
import dev.idgen.spring.boot.autoconfigure.core.IdgenProperties;
import dev.idgen.spring.boot.autoconfigure.core.IdgenSettings;
import dev.idgen.spring.boot.autoconfigure.core.IdgenStrategy;
import dev.idgen.spring.boot.autoconfigure.jdbc.JdbcProperties;
import dev.idgen.spring.boot.autoconfigure.redis.RedisStrategy;
import dev.idgen.spring.boot.autoconfigure.remote.RemoteProperties;
import dev.idgen.spring.boot.autoconfigure.segment.SegmentStrategy;
import dev.idgen.spring.boot.autoconfigure.snowflake.SnowflakeStrategy;
import dev.idgen.spring.boot.autoconfigure.ticket.TicketStrategy;
import java.util.ArrayList;
import java.util.List;

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

    /**
     * The settings sections of the strategies' stores, which no strategy declares alone: each is bound for every
     * generator at start-up with the strategies' own and the engines' ({@link #sections()}).
     */
    private static final List<IdgenSettings<?>> STORE_SECTIONS =
            List.of(JdbcProperties.SECTION, RemoteProperties.SECTION);

    private IdgenStrategies() {}

    /**
     * @return every settings section, the strategies' and the stores': each is bound for every generator at start-up
     *     ({@link #bindEverySection}), so that a bad value, or a shared one set under a generator, fails start-up
     *     whatever the strategy in use
     */
    public static List<IdgenSettings<?>> sections() {
        List<IdgenSettings<?>> sections = new ArrayList<>();
        for (IdgenProperties.Strategy strategy : IdgenProperties.Strategy.values()) {
            sections.addAll(of(strategy).sections());
        }
        sections.addAll(STORE_SECTIONS);
        IdgenStores.ENGINES.forEach(engine -> sections.add(engine.section()));
        return List.copyOf(sections);
    }

    /**
     * Binds every section for every generator, the standalone ones included, and checks every setting that chooses a
     * store.
     *
     * @throws RuntimeException the binder's or idgen's failure naming the property at fault
     */
    static void bindEverySection(IdgenGenerators generators) {
        List<IdgenGenerators.Definition> definitions = new ArrayList<>();
        generators.all().forEach(definitions::add);
        definitions.addAll(generators.standalone().values());
        List<IdgenSettings<?>> sections = sections();
        for (IdgenGenerators.Definition definition : definitions) {
            for (IdgenSettings<?> section : sections) {
                definition.settings(section);
            }
            IdgenStoresInUse.checkChoices(definition);
        }
    }

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
