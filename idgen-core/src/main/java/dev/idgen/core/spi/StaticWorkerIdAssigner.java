package dev.idgen.core.spi;

import dev.idgen.core.InvalidArgumentException;
import java.util.OptionalLong;

/**
 * Hands out one fixed worker id, for example from {@code idgen.snowflake.worker-id}. The operator keeps it unique:
 * two running instances with the same worker id can issue the same IDs.
 */
public final class StaticWorkerIdAssigner implements WorkerIdAssigner {

    private final long workerId;

    /**
     * @param workerId the worker id, at least 0; its upper bound is checked against the layout on {@link #acquire}
     */
    public StaticWorkerIdAssigner(long workerId) {
        if (workerId < 0) {
            throw new InvalidArgumentException(
                    "workerId", workerId, "workerId must be at least 0, but was " + workerId);
        }
        this.workerId = workerId;
    }

    @Override
    public WorkerIdLease acquire(long maxWorkerId) {
        if (workerId > maxWorkerId) {
            throw new InvalidArgumentException(
                    "workerId",
                    workerId,
                    "workerId must be between 0 and " + maxWorkerId + " for this layout's worker bits, but was "
                            + workerId);
        }
        return new Lease(workerId);
    }

    @Override
    public String toString() {
        return "StaticWorkerIdAssigner[workerId=" + workerId + "]";
    }

    private record Lease(long workerId) implements WorkerIdLease {

        @Override
        public OptionalLong lastUsedTimestamp() {
            return OptionalLong.empty();
        }

        @Override
        public void close() {}
    }
}
