package dev.idgen.contracts;

import dev.idgen.core.IdService;
import dev.idgen.core.segment.InMemorySegmentStore;
import dev.idgen.core.segment.SegmentIdService;
import dev.idgen.core.segment.SegmentSettings;
import dev.idgen.test.IdServiceContract;

/** The {@link IdService} contract for segments with striping on: each thread serves runs of its own. */
class StripedSegmentIdServiceContractTest extends IdServiceContract {

    @Override
    protected IdService service() {
        return SegmentIdService.builder(new InMemorySegmentStore())
                .settings(SegmentSettings.builder().stripeSize(64).build())
                .build();
    }
}
