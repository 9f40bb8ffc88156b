package dev.idgen.contracts;

import dev.idgen.core.segment.InMemorySegmentStore;
import dev.idgen.core.segment.SegmentStore;
import dev.idgen.test.SegmentStoreContract;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

class InMemorySegmentStoreTest extends SegmentStoreContract {

    private final Map<Long, InMemorySegmentStore> shared = new HashMap<>();

    @Override
    protected SegmentStore store(long initialValue) {
        return shared.computeIfAbsent(initialValue, value -> new InMemorySegmentStore(value, Duration.ZERO));
    }
}
