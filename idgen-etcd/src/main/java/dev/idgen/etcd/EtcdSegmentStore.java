package dev.idgen.etcd;

import dev.idgen.core.IdArguments;
import dev.idgen.core.IdGenerationException;
import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.segment.Segment;
import dev.idgen.core.segment.SegmentStore;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.PutOption;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A {@link SegmentStore} on etcd: one key per name, {@code <namespace>segments/<name>}, holding the highest ID
 * allocated so far as a decimal string.
 *
 * <p>An allocation reads the key (a linearizable read, through the leader's read index), then writes {@code old +
 * step} in a transaction that compares the key's {@code mod_revision} with the one it read ({@code version == 0} for
 * a name seen for the first time). When another instance allocated in between, the comparison fails, the
 * transaction's {@code Else} branch reads the key again, and the allocation tries again with that value, until its
 * timeout. The block is {@code (old, old + step]}; a new name starts after {@code initialValue}. Every write is
 * acknowledged by a Raft quorum before it returns, and a new leader has every acknowledged write, so a leader change
 * loses nothing: unlike a database failing over to a lagging replica, no failover jump is needed.
 *
 * <p>Names are used as they are after the prefix: etcd keys are arbitrary bytes and nothing else lives under
 * {@code <namespace>segments/}, so a name with a '/' in it cannot collide with another name. A name must not be empty.
 *
 * <p>Every call returns or throws {@link EtcdUnavailableException} within {@code timeout} (plus scheduling), also
 * while the cluster has no quorum or no member answers: see {@link EtcdCalls}.
 */
public final class EtcdSegmentStore implements SegmentStore {

    private final KV kv;
    private final String namespace;
    private final String prefix;
    private final long initialValue;
    private final EtcdCalls calls;

    /**
     * A store whose messages name the client's endpoints as "the client's endpoints"; see
     * {@link #EtcdSegmentStore(Client, String, long, Duration, String)} to name them.
     *
     * @param client the etcd client, shared, closed by its owner
     * @param namespace the key prefix, 1 to 128 characters without whitespace or control characters, conventionally
     *        ending with '/' (one is appended otherwise)
     * @param initialValue the value a new name starts from; its first ID is {@code initialValue + 1}
     * @param timeout the longest any call may take, positive
     * @throws InvalidArgumentException naming {@code namespace}, {@code initialValue} or {@code timeout}
     */
    public EtcdSegmentStore(Client client, String namespace, long initialValue, Duration timeout) {
        this(client, namespace, initialValue, timeout, "the client's endpoints");
    }

    /**
     * @param client the etcd client, shared, closed by its owner
     * @param namespace the key prefix, 1 to 128 characters without whitespace or control characters, conventionally
     *        ending with '/' (one is appended otherwise)
     * @param initialValue the value a new name starts from; its first ID is {@code initialValue + 1}
     * @param timeout the longest any call may take, positive
     * @param endpoints the client's endpoints as messages and {@link #toString()} should name them, e.g.
     *        {@code http://10.0.0.1:2379,http://10.0.0.2:2379}, without credentials
     * @throws InvalidArgumentException naming {@code namespace}, {@code initialValue} or {@code timeout}
     */
    public EtcdSegmentStore(Client client, String namespace, long initialValue, Duration timeout, String endpoints) {
        if (client == null) {
            throw new InvalidArgumentException("client", null, "client must not be null");
        }
        if (initialValue < 0) {
            throw new InvalidArgumentException(
                    "initialValue", initialValue, "initialValue must be at least 0, but was " + initialValue);
        }
        this.kv = client.getKVClient();
        this.namespace = EtcdCalls.checkNamespace(namespace);
        this.prefix = this.namespace + "segments/";
        this.initialValue = initialValue;
        this.calls = new EtcdCalls(endpoints, EtcdCalls.checkTimeout(timeout));
    }

    /**
     * {@inheritDoc}
     *
     * @throws InvalidArgumentException naming {@code name} or {@code step}
     * @throws IdGenerationException when the name's counter would pass {@link Long#MAX_VALUE}
     */
    @Override
    public Segment allocate(String name, long step) {
        return allocateAbove(name, step, 0);
    }

    /**
     * {@inheritDoc}
     *
     * <p>The block starts after {@code max(stored, floor)}, written in the same compare-and-set. etcd loses no
     * acknowledged write on a leader change, so nothing more is needed.
     *
     * @throws InvalidArgumentException naming {@code name} or {@code step}
     * @throws IdGenerationException when the name's counter would pass {@link Long#MAX_VALUE}
     */
    @Override
    public Segment allocateAbove(String name, long step, long floor) {
        if (name == null || name.isEmpty()) {
            throw new InvalidArgumentException("name", name, "name must not be empty");
        }
        if (step < 1) {
            throw new InvalidArgumentException("step", step, "step must be at least 1, but was " + step);
        }
        String what = "allocate " + step + " IDs for '" + name + "'";
        ByteSequence key = EtcdCalls.bytes(prefix + name);
        long deadline = calls.deadline();
        List<KeyValue> current = calls.await(kv.get(key), deadline, what).getKvs();
        while (true) {
            long old;
            Cmp unchanged;
            if (current.isEmpty()) {
                old = initialValue;
                unchanged = new Cmp(key, Cmp.Op.EQUAL, CmpTarget.version(0));
            } else {
                old = parse(current.get(0), name);
                unchanged = new Cmp(
                        key, Cmp.Op.EQUAL, CmpTarget.modRevision(current.get(0).getModRevision()));
            }
            long start = Math.max(old, Math.max(0, floor));
            if (start > Long.MAX_VALUE - step) {
                throw new IdGenerationException("The segment counter of '" + name + "' in etcd stands at " + start
                        + "; " + step + " more IDs would pass the largest long (" + Long.MAX_VALUE
                        + "), so none are allocated");
            }
            long max = start + step;
            // The compare on the revision read makes the write happen at most once per read. If jetcd resends the
            // transaction after a reconnect, or a transaction cancelled at the timeout still reaches the leader, a
            // second arrival finds the revision moved (by the first, or by anyone else) and fails: it cannot
            // allocate twice. If the answer is lost after the write was applied (timeout, connection gone), this
            // allocation throws and the caller's retry reads the new value and takes a fresh block: the lost block is
            // a gap, never a repeat.
            TxnResponse txn = calls.await(
                    kv.txn()
                            .If(unchanged)
                            .Then(Op.put(key, EtcdCalls.bytes(Long.toString(max)), PutOption.DEFAULT))
                            .Else(Op.get(key, GetOption.DEFAULT))
                            .commit(),
                    deadline,
                    what);
            if (txn.isSucceeded()) {
                return new Segment(start + 1, max);
            }
            if (EtcdCalls.passed(deadline)) {
                throw calls.timedOut(what);
            }
            List<GetResponse> reads = txn.getGetResponses();
            current = reads.isEmpty() ? List.of() : reads.get(0).getKvs();
        }
    }

    private long parse(KeyValue value, String name) {
        String text = EtcdCalls.string(value.getValue());
        try {
            long parsed = Long.parseLong(text);
            if (parsed >= 0) {
                return parsed;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new EtcdUnavailableException("The segment key " + prefix + name + " in etcd at " + calls.endpoints()
                + " holds '" + text + "', not a decimal count of IDs; it was written by something else");
    }

    /**
     * A linearizable read under the namespace (it needs the leader and a quorum, as an allocation does), bounded by
     * the timeout.
     *
     * @throws EtcdUnavailableException when etcd cannot answer it in time
     */
    @Override
    public void checkAvailable() {
        calls.await(
                kv.get(
                        EtcdCalls.bytes(prefix),
                        GetOption.builder().isPrefix(true).withCountOnly(true).build()),
                calls.deadline(),
                "read under " + prefix);
    }

    @Override
    public Optional<List<String>> names() {
        List<KeyValue> keys = calls.await(
                        kv.get(
                                EtcdCalls.bytes(prefix),
                                GetOption.builder()
                                        .isPrefix(true)
                                        .withKeysOnly(true)
                                        .build()),
                        calls.deadline(),
                        "list the names under " + prefix)
                .getKvs();
        List<String> names = new ArrayList<>();
        for (KeyValue key : keys) {
            String name = key.getKey().toString(StandardCharsets.UTF_8).substring(prefix.length());
            if (IdArguments.isName(name)) {
                names.add(name);
            }
        }
        return Optional.of(names);
    }

    /**
     * @return the namespace, ending with '/'
     */
    public String namespace() {
        return namespace;
    }

    /**
     * @return for example {@code etcd segments under idgen/ on http://10.0.0.1:2379}; never a call to etcd
     */
    @Override
    public String toString() {
        return "etcd segments under " + namespace + " on " + calls.endpoints();
    }
}
