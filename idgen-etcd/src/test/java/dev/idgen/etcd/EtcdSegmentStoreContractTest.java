package dev.idgen.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.core.IdGenerationException;
import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.segment.Segment;
import dev.idgen.core.segment.SegmentStore;
import dev.idgen.test.SegmentStoreContract;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The segment store contract against a three-member etcd cluster of the test's own. */
class EtcdSegmentStoreContractTest extends SegmentStoreContract {

    @RegisterExtension
    static final EtcdCluster etcd = new EtcdCluster(3);

    private final String namespace = EtcdTests.namespace();

    @Override
    protected SegmentStore store(long initialValue) {
        return new EtcdSegmentStore(
                etcd.client(),
                namespace,
                initialValue,
                Duration.ofSeconds(10),
                etcd.cluster().endpoints());
    }

    @Test
    void allocateAboveStartsAfterTheFloorAndKeepsIt() {
        SegmentStore store = store(0);
        String name = uniqueName();
        assertThat(store.allocate(name, 10)).isEqualTo(new Segment(1, 10));
        assertThat(store.allocateAbove(name, 5, 100)).isEqualTo(new Segment(101, 105));
        assertThat(store.allocateAbove(name, 5, 50)).isEqualTo(new Segment(106, 110));
        assertThat(store(1000).allocateAbove(uniqueName(), 1, 7)).isEqualTo(new Segment(1001, 1001));
    }

    @Test
    void refusesToPassTheLargestLongInsteadOfWrapping() {
        SegmentStore store = store(Long.MAX_VALUE - 10);
        String name = uniqueName();
        assertThat(store.allocate(name, 10)).isEqualTo(new Segment(Long.MAX_VALUE - 9, Long.MAX_VALUE));
        assertThatThrownBy(() -> store.allocate(name, 1))
                .isInstanceOf(IdGenerationException.class)
                .hasMessageContaining("largest long");
    }

    @Test
    void keepsTheCountAsADecimalStringUnderTheNamespace() throws Exception {
        String name = uniqueName();
        store(41).allocate(name, 1);
        var value = etcd.client()
                .getKVClient()
                .get(EtcdCalls.bytes(namespace + "segments/" + name))
                .get()
                .getKvs()
                .get(0)
                .getValue()
                .toString(StandardCharsets.UTF_8);
        assertThat(value).isEqualTo("42");
    }

    @Test
    void checksItsArgumentsAndDescribesItself() {
        assertThatThrownBy(() -> new EtcdSegmentStore(etcd.client(), "", 0, Duration.ofSeconds(1)))
                .isInstanceOfSatisfying(
                        InvalidArgumentException.class,
                        e -> assertThat(e.argument()).isEqualTo("namespace"));
        assertThatThrownBy(() -> new EtcdSegmentStore(etcd.client(), "a b/", 0, Duration.ofSeconds(1)))
                .isInstanceOfSatisfying(
                        InvalidArgumentException.class,
                        e -> assertThat(e.argument()).isEqualTo("namespace"));
        assertThatThrownBy(() -> new EtcdSegmentStore(etcd.client(), "x".repeat(129), 0, Duration.ofSeconds(1)))
                .isInstanceOfSatisfying(
                        InvalidArgumentException.class,
                        e -> assertThat(e.argument()).isEqualTo("namespace"));
        assertThatThrownBy(() -> new EtcdSegmentStore(etcd.client(), "ns/", 0, Duration.ZERO))
                .isInstanceOfSatisfying(
                        InvalidArgumentException.class,
                        e -> assertThat(e.argument()).isEqualTo("timeout"));
        assertThatThrownBy(() -> new EtcdSegmentStore(etcd.client(), "ns/", -1, Duration.ofSeconds(1)))
                .isInstanceOfSatisfying(
                        InvalidArgumentException.class,
                        e -> assertThat(e.argument()).isEqualTo("initialValue"));
        EtcdSegmentStore store = new EtcdSegmentStore(etcd.client(), "app", 0, Duration.ofSeconds(1), "http://h:2379");
        assertThat(store.namespace()).isEqualTo("app/");
        assertThat(store).hasToString("etcd segments under app/ on http://h:2379");
        assertThatThrownBy(() -> store.allocate("n", 0))
                .isInstanceOfSatisfying(
                        InvalidArgumentException.class,
                        e -> assertThat(e.argument()).isEqualTo("step"));
        assertThatThrownBy(() -> store.allocate("", 1))
                .isInstanceOfSatisfying(
                        InvalidArgumentException.class,
                        e -> assertThat(e.argument()).isEqualTo("name"));
        store.checkAvailable();
    }
}
