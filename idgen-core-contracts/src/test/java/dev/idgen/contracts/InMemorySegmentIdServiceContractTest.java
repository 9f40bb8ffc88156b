package dev.idgen.contracts;

import dev.idgen.core.IdService;
import dev.idgen.core.segment.InMemorySegmentStore;
import dev.idgen.core.segment.SegmentIdService;
import dev.idgen.test.IdServiceContract;

/** The {@link IdService} contract for segments from memory, served from one shared cursor per name. */
class InMemorySegmentIdServiceContractTest extends IdServiceContract {

    @Override
    protected IdService service() {
        return SegmentIdService.builder(new InMemorySegmentStore()).build();
    }

    @Override
    protected boolean idsIncreaseAcrossThreads() {
        return true;
    }
}
