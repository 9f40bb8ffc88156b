package dev.idgen.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.core.segment.SegmentIdService;
import dev.idgen.test.ScriptedIdgenServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The core's segment service serving IDs from blocks the remote store takes from two servers over one store. */
class RemoteSegmentIdServiceTest {

    @Test
    void servesUniqueIncreasingIdsFromRemoteBlocks() throws Exception {
        AtomicLong counter = new AtomicLong();
        try (ScriptedIdgenServer a = new ScriptedIdgenServer(counter);
                ScriptedIdgenServer b = new ScriptedIdgenServer(counter);
                RemoteSegmentStore store = RemoteSegmentStore.builder()
                        .servers(a.uri(), b.uri())
                        .timeout(Duration.ofSeconds(3))
                        .build();
                SegmentIdService service = SegmentIdService.builder(store).build()) {
            long previous = 0;
            for (int i = 0; i < 3000; i++) {
                long id = service.nextId("orders");
                assertThat(id).isGreaterThan(previous);
                previous = id;
            }
            ExecutorService threads = Executors.newFixedThreadPool(4);
            try {
                List<Future<List<Long>>> results = new ArrayList<>();
                for (int t = 0; t < 4; t++) {
                    results.add(threads.submit(() -> {
                        List<Long> ids = new ArrayList<>();
                        long last = 0;
                        for (int i = 0; i < 5000; i++) {
                            long id = service.nextId("orders");
                            // Each thread sees its own IDs increase.
                            assertThat(id).isGreaterThan(last);
                            last = id;
                            ids.add(id);
                        }
                        return ids;
                    }));
                }
                Set<Long> all = new HashSet<>();
                for (Future<List<Long>> result : results) {
                    all.addAll(result.get());
                }
                assertThat(all).hasSize(20_000).allMatch(id -> id > 3000 - 1);
            } finally {
                threads.shutdownNow();
            }
            assertThat(a.blockRequests() + b.blockRequests()).isGreaterThan(1);
            assertThat(a.blockRequests()).isPositive();
            assertThat(b.blockRequests()).isPositive();
            assertThat(counter.get()).isGreaterThanOrEqualTo(23_000);
        }
    }
}
