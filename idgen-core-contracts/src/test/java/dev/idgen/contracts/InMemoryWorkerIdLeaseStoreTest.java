package dev.idgen.contracts;

import dev.idgen.core.ManualTimeSource;
import dev.idgen.core.lease.InMemoryWorkerIdLeaseStore;
import dev.idgen.core.spi.WorkerIdLeaseStore;
import dev.idgen.test.WorkerIdLeaseStoreContract;
import java.time.Duration;

class InMemoryWorkerIdLeaseStoreTest extends WorkerIdLeaseStoreContract {

    private final ManualTimeSource clock = new ManualTimeSource(1_800_000_000_000L);

    private final InMemoryWorkerIdLeaseStore store = new InMemoryWorkerIdLeaseStore(clock);

    @Override
    protected WorkerIdLeaseStore store() {
        return store;
    }

    @Override
    protected void pass(Duration duration) {
        clock.advance(duration);
    }

    @Override
    protected long nowMillis() {
        return clock.currentTimeMillis();
    }
}
