package dev.idgen.spring.boot.autoconfigure.core;

import java.util.List;

/**
 * A generator's setting that chooses where it keeps something, as set: what a strategy tells the auto-configuration
 * ({@link IdgenStrategy#storeChoices}) so that it can check the value, and find the {@link ConsensusEngine} a
 * generator uses, without the strategy listing the engines.
 *
 * @param property the property, for example {@code idgen.generators.invoice.segment.store}
 * @param value its value
 * @param role what the store is chosen to keep
 * @param builtIn the strategy's own values; any other value names an engine that keeps {@code role}
 * @param engineOfBuiltIn the engine a built-in value works on (the {@code leaf-zookeeper} assigner), or null
 */
public record StoreChoice(
        String property, StoreName value, Role role, List<StoreName> builtIn, StoreName engineOfBuiltIn) {

    /** What a chosen store keeps. */
    public enum Role {

        /** Segments, as a {@code SegmentStore}: a generator's blocks, or the windows of a Redis counter. */
        SEGMENTS,

        /** Worker id leases, as a {@code WorkerIdLeaseStore}. */
        LEASES
    }

    public StoreChoice {
        builtIn = List.copyOf(builtIn);
    }

    /** A choice whose built-in values keep nothing in an engine. */
    public static StoreChoice of(String property, StoreName value, Role role, List<StoreName> builtIn) {
        return new StoreChoice(property, value, role, builtIn, null);
    }

    /** @return the engine the value makes the generator use, or null when it uses none */
    public StoreName engine() {
        return builtIn.contains(value) ? engineOfBuiltIn : value;
    }

    /** @return for messages, for example {@code idgen.segment.store=etcd} */
    public String setting() {
        return property + "=" + value.value();
    }
}
