package dev.idgen.test;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.core.segment.Segment;
import dev.idgen.core.segment.SegmentStore;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The contract every {@link SegmentStore} keeps. Each implementation's test extends this class.
 */
public abstract class SegmentStoreContract {

    /**
     * @return a store whose new names start after {@code initialValue}; repeated calls within one test return
     *         stores on the same backing data, as separate application instances would be
     */
    protected abstract SegmentStore store(long initialValue);

    /**
     * @return whether allocations racing for one name leave no gap between their blocks; a store that moves several
     *         rows per block (Tinyid's, over several databases) may waste a block it lost half-way, never repeat one
     */
    protected boolean contendedAllocationsLeaveNoGap() {
        return true;
    }

    protected String uniqueName() {
        return "contract-" + UUID.randomUUID().toString().substring(0, 8);
    }

    @Test
    void aNewNameStartsAfterTheInitialValueWithExactlyStepIds() {
        Segment segment = store(1000).allocate(uniqueName(), 50);
        assertThat(segment.first()).isEqualTo(1001);
        assertThat(segment.last()).isEqualTo(1050);
        assertThat(segment.size()).isEqualTo(50);
    }

    @Test
    void successiveAllocationsFollowEachOtherAndMayChangeStep() {
        SegmentStore store = store(0);
        String name = uniqueName();
        Segment a = store.allocate(name, 10);
        Segment b = store.allocate(name, 100);
        Segment c = store.allocate(name, 1);
        assertThat(b.first()).isEqualTo(a.last() + 1);
        assertThat(b.size()).isEqualTo(100);
        assertThat(c.first()).isEqualTo(b.last() + 1);
        assertThat(c.size()).isEqualTo(1);
    }

    /**
     * A store that lists its names lists every name it allocated for, and nothing a caller could not have named (its
     * own rows, the marks of a store switch). A store that cannot list them says so with an empty answer.
     */
    @Test
    void namesListsEveryNameAllocatedAndNoneThatIsNotAName() {
        SegmentStore store = store(0);
        String first = uniqueName();
        String second = uniqueName();
        store.allocate(first, 10);
        store.allocate(second, 10);
        store.allocate("_idgen.live.contract", 1);
        store.names()
                .ifPresent(names -> assertThat(names)
                        .contains(first, second)
                        .allMatch(name -> Character.isLetterOrDigit(name.charAt(0))));
    }

    @Test
    void namesAreIndependent() {
        SegmentStore store = store(0);
        String first = uniqueName();
        String second = uniqueName();
        store.allocate(first, 10);
        assertThat(store.allocate(second, 10).first()).isEqualTo(1);
        assertThat(store.allocate(first, 10).first()).isEqualTo(11);
    }

    @Test
    void concurrentAllocationsFromSeveralInstancesNeverOverlapEvenForANewName() throws Exception {
        String name = uniqueName();
        int instances = 4;
        int perInstance = 25;
        List<SegmentStore> stores = new ArrayList<>();
        for (int i = 0; i < instances; i++) {
            stores.add(store(0));
        }
        ExecutorService executor = Executors.newFixedThreadPool(instances * 2);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<List<Segment>>> results = new ArrayList<>();
            for (int t = 0; t < instances * 2; t++) {
                SegmentStore store = stores.get(t % instances);
                long step = 1 + t;
                results.add(executor.submit(() -> {
                    start.await();
                    List<Segment> segments = new ArrayList<>();
                    for (int i = 0; i < perInstance; i++) {
                        segments.add(store.allocate(name, step));
                    }
                    return segments;
                }));
            }
            start.countDown();
            List<Segment> all = new ArrayList<>();
            for (Future<List<Segment>> result : results) {
                all.addAll(result.get(120, TimeUnit.SECONDS));
            }
            all.sort((x, y) -> Long.compare(x.first(), y.first()));
            if (contendedAllocationsLeaveNoGap()) {
                assertThat(all.get(0).first()).isEqualTo(1);
            }
            for (int i = 1; i < all.size(); i++) {
                if (contendedAllocationsLeaveNoGap()) {
                    assertThat(all.get(i).first())
                            .as("no gap and no overlap")
                            .isEqualTo(all.get(i - 1).last() + 1);
                } else {
                    assertThat(all.get(i).first())
                            .as("no overlap")
                            .isGreaterThan(all.get(i - 1).last());
                }
            }
        } finally {
            executor.shutdownNow();
        }
    }
}
