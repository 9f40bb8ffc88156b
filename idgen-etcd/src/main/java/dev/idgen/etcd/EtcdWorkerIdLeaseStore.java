package dev.idgen.etcd;

import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.spi.WorkerIdLeaseStore;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.Lease;
import io.etcd.jetcd.common.exception.ErrorCode;
import io.etcd.jetcd.common.exception.EtcdException;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.lease.LeaseGrantResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.DeleteOption;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.LeaseOption;
import io.etcd.jetcd.options.PutOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A {@link WorkerIdLeaseStore} on etcd's own leases: expiry is judged by the etcd leader's clock, and a key bound to a
 * lease disappears when the lease lapses.
 *
 * <p><b>Keys.</b> Per worker id, under {@code <namespace>workers/<id>/}:
 * <ul>
 * <li>{@code owner}, the owner's identity, bound to lease A of {@code ttl};</li>
 * <li>{@code fence}, bound to lease B of {@code ttl + reuseDelay}, renewed together with (and always after) A, so it
 * outlives A by at least the reuse delay: the worker id stays unusable for {@code reuseDelay} after its owner lease
 * lapsed. Its value is the reuse delay in seconds, so a release from any instance knows it;</li>
 * <li>{@code last}, persistent, the highest last timestamp any owner recorded;</li>
 * <li>{@code state}, persistent, {@code held <ttl ms> <grant>} from an acquisition, {@code released} from a release:
 * an id taken while it says held lapsed unreleased and is granted as taken over (see {@link Acquisition}), so its new
 * owner waits that ttl plus the reuse delay by its own monotonic clock before it issues. {@code <grant>} is the
 * {@link Acquisition#previousTtlMillis()} that acquisition answered (0 free), repeated when the owner is given its
 * lease back; a state written by an older version, {@code held <ttl ms>} alone, gives it back as taken over with an
 * unknown ttl, and an older version reads this version's state as held with an unknown ttl: both the safe side. etcd's lease countdown needs no
 * synchronised clocks, but an etcd without the fix of etcd-io/etcd#15247 (3.4.31, 3.5.13) can have a stale leader
 * revoke a lease that is still renewed; the wait covers a holder whose renewals fail from then on.</li>
 * </ul>
 * Why two leases: etcd tells nobody when a lease expired, so "expired at least reuseDelay ago" cannot be judged from
 * the owner key alone; the fence is a second lease that ends that much later. A worker id is free when both keys are
 * absent.
 *
 * <p><b>Operations.</b> {@link #acquire} reads the keys, grants A and B, and takes the lowest free worker id with one
 * transaction that compares both keys' {@code create_revision} with 0 and puts them (and reads {@code last}), so two
 * owners never both succeed; losing the race moves it to the next free id with the same leases; leases it did not use
 * are revoked. {@link #renew} sends one {@code keepAliveOnce} for A, then one for B (never the automatic keep-alive
 * of jetcd: renewals are driven by the owner's heartbeat, so a stopped or dead owner lets the lease lapse), and raises
 * {@code last} in a transaction that compares the owner key's value and revision with the acquisition's. An expired
 * lease (etcd answers "lease not found") refuses the renewal: etcd never revives a lease. The lease ids of each
 * acquisition are known only to the store instance that made it (the owner's process), or gave it back; a store
 * instance that does not know them refuses to renew. A renewal whose keep-alive of A arrived but whose keep-alive of B did not answer in
 * time throws, so the owner does not count it: its own deadline still stems from the last renewal that reached both
 * leases, and the worker id, held until A lapses, is free no sooner than the reuse delay after that deadline.
 * {@link #release} deletes the owner key, moves the fence to a fresh lease of the
 * reuse delay and raises {@code last}, in one transaction conditional on the owner, then revokes the old leases.
 *
 * <p><b>Whole seconds.</b> etcd leases count whole seconds, so the ttl and the reuse delay are rounded <em>up</em>:
 * the store keeps a worker id at least as long as its owner believes it holds it, and free only later than asked,
 * the safe direction. etcd also raises a TTL below its minimum (1.5 election timeouts rounded up: 2 s with the default
 * 1 s) to that minimum; the fence is granted from A's granted TTL, so it still outlives A by the reuse delay. A
 * renewal extends a lease by the TTL it was granted with: the {@code ttl} passed to {@link #renew} is the one the
 * assigner acquired with.
 *
 * <p><b>Leader changes.</b> A new etcd leader extends every lease by its TTL plus an election timeout, since it
 * cannot know when the old leader last renewed it: worker ids stay held longer, never shorter, and the fence keeps its
 * margin over the owner lease. Lease expiry is checked by the leader about every 500 ms, so a key outlives its lease by
 * up to that much: later, the safe direction.
 *
 * <p><b>Timeouts.</b> Every call returns or throws {@link EtcdUnavailableException} within {@code timeout}, see
 * {@link EtcdCalls}. An acquisition whose transaction was applied but whose answer was lost leaves leases nobody
 * renews: its keys lapse after the ttl and the reuse delay (this store also tries to revoke them), and the owner,
 * having been told nothing was granted, never used the id. When the owner asks again while they live, it gets them
 * back (see {@link WorkerIdLeaseStore#acquire}): {@link #acquire} first looks for an owner key in its name, keeps its
 * two leases alive, and checks in a transaction that the key is still the one it read; it is granted as its state
 * says the lost acquisition was, so a lost take-over still waits for the holder it was taken from. The owner is unique per process
 * (instance id plus nonce), so no other process gets them. A revocation of those leases that arrives after they were
 * given back ends the lease; the owner's next renewal is refused and it acquires afresh, while whoever takes the id
 * meanwhile takes it over (its state says held) and waits out the owner's ttl.
 */
public final class EtcdWorkerIdLeaseStore implements WorkerIdLeaseStore {

    private static final int MAX_OWNER_LENGTH = 128;

    /** How much later than etcd's remaining TTL a fence is surely gone: the TTL is truncated, and revocation lags. */
    private static final long REVOCATION_SLACK_MILLIS = 1_500;

    private final KV kv;
    private final Lease leases;
    private final String namespace;
    private final String prefix;
    private final EtcdCalls calls;

    /** The leases of the acquisitions this instance made and still holds, by {@code workerId/owner}. */
    private final Map<String, Held> held = new ConcurrentHashMap<>();

    /**
     * An acquisition's leases and the revision its owner key was written at.
     *
     * @param owner lease A, the owner key's
     * @param fence lease B, the fence key's
     * @param ownerRevision the owner key's mod revision
     */
    private record Held(long owner, long fence, long ownerRevision) {}

    /** What the keys of one worker id hold. */
    private static final class Slot {
        KeyValue owner;
        KeyValue fence;
        KeyValue last;
        KeyValue state;

        boolean free() {
            return owner == null && fence == null;
        }
    }

    /**
     * A store whose messages name the client's endpoints as "the client's endpoints"; see
     * {@link #EtcdWorkerIdLeaseStore(Client, String, Duration, String)} to name them.
     *
     * @param client the etcd client, shared, closed by its owner
     * @param namespace the key prefix, 1 to 128 characters without whitespace or control characters, conventionally
     *        ending with '/' (one is appended otherwise)
     * @param timeout the longest any call may take, positive
     * @throws InvalidArgumentException naming {@code namespace} or {@code timeout}
     */
    public EtcdWorkerIdLeaseStore(Client client, String namespace, Duration timeout) {
        this(client, namespace, timeout, "the client's endpoints");
    }

    /**
     * @param client the etcd client, shared, closed by its owner
     * @param namespace the key prefix, 1 to 128 characters without whitespace or control characters, conventionally
     *        ending with '/' (one is appended otherwise)
     * @param timeout the longest any call may take, positive
     * @param endpoints the client's endpoints as messages and {@link #toString()} should name them, without
     *        credentials
     * @throws InvalidArgumentException naming {@code namespace} or {@code timeout}
     */
    public EtcdWorkerIdLeaseStore(Client client, String namespace, Duration timeout, String endpoints) {
        if (client == null) {
            throw new InvalidArgumentException("client", null, "client must not be null");
        }
        this.kv = client.getKVClient();
        this.leases = client.getLeaseClient();
        this.namespace = EtcdCalls.checkNamespace(namespace);
        this.prefix = this.namespace + "workers/";
        this.calls = new EtcdCalls(endpoints, EtcdCalls.checkTimeout(timeout));
    }

    @Override
    public Acquisition acquire(String owner, long maxWorkerId, Duration ttl, Duration reuseDelay) {
        checkOwner(owner);
        if (maxWorkerId < 0) {
            throw new InvalidArgumentException(
                    "maxWorkerId", maxWorkerId, "maxWorkerId must be at least 0, but was " + maxWorkerId);
        }
        if (ttl == null || ttl.isNegative() || ttl.isZero()) {
            throw new InvalidArgumentException("ttl", ttl, "ttl must be positive, but was " + ttl);
        }
        if (reuseDelay == null || reuseDelay.isNegative()) {
            throw new InvalidArgumentException(
                    "reuseDelay", reuseDelay, "reuseDelay must not be negative, but was " + reuseDelay);
        }
        String what = "acquire a worker id from 0 to " + maxWorkerId + " for '" + owner + "'";
        long deadline = calls.deadline();
        Map<Long, Slot> slots = slots(calls.await(kv.get(EtcdCalls.bytes(prefix), prefixOption()), deadline, what)
                .getKvs());
        Acquisition own = ownLease(slots, owner, maxWorkerId, deadline, what);
        if (own != null) {
            return own;
        }
        long candidate = lowestFree(slots, maxWorkerId);
        if (candidate < 0) {
            return Acquisition.none(retryAfter(slots, maxWorkerId, deadline));
        }
        long delaySeconds = EtcdCalls.ceilSeconds(reuseDelay);
        long ttlMillis = ttl.toMillis();
        LeaseGrantResponse ownerLease =
                calls.await(leases.grant(Math.max(1, EtcdCalls.ceilSeconds(ttl))), deadline, what);
        long fenceLease = -1;
        boolean granted = false;
        try {
            // From A's granted TTL (etcd may have raised it to its minimum), so B outlives A by the reuse delay.
            fenceLease = calls.await(leases.grant(ownerLease.getTTL() + delaySeconds), deadline, what)
                    .getID();
            while (true) {
                String base = prefix + candidate + "/";
                ByteSequence ownerKey = EtcdCalls.bytes(base + "owner");
                ByteSequence fenceKey = EtcdCalls.bytes(base + "fence");
                ByteSequence stateKey = EtcdCalls.bytes(base + "state");
                Slot read = slots.get(candidate);
                KeyValue readState = read == null ? null : read.state;
                boolean neverRecorded = read == null || read.last == null;
                // Recorded with the lease from the state read, so the transaction requires that state unchanged.
                long previousTtl = previousTtl(neverRecorded, readState);
                TxnResponse txn = calls.await(
                        kv.txn()
                                .If(
                                        new Cmp(ownerKey, Cmp.Op.EQUAL, CmpTarget.createRevision(0)),
                                        new Cmp(fenceKey, Cmp.Op.EQUAL, CmpTarget.createRevision(0)),
                                        new Cmp(
                                                stateKey,
                                                Cmp.Op.EQUAL,
                                                CmpTarget.modRevision(
                                                        readState == null ? 0 : readState.getModRevision())),
                                        new Cmp(
                                                EtcdCalls.bytes(base + "last"),
                                                Cmp.Op.EQUAL,
                                                CmpTarget.modRevision(neverRecorded ? 0 : read.last.getModRevision())))
                                .Then(
                                        Op.put(ownerKey, EtcdCalls.bytes(owner), lease(ownerLease.getID())),
                                        Op.put(
                                                fenceKey,
                                                EtcdCalls.bytes(Long.toString(delaySeconds)),
                                                lease(fenceLease)),
                                        Op.get(EtcdCalls.bytes(base + "last"), GetOption.DEFAULT),
                                        Op.put(
                                                stateKey,
                                                EtcdCalls.bytes(HELD + ttlMillis + " " + previousTtl),
                                                PutOption.DEFAULT))
                                .Else(Op.get(EtcdCalls.bytes(prefix), prefixOption()))
                                .commit(),
                        deadline,
                        what);
                if (txn.isSucceeded()) {
                    // The header's revision is the transaction's, the owner key's mod revision.
                    held.put(
                            key(candidate, owner),
                            new Held(
                                    ownerLease.getID(),
                                    fenceLease,
                                    txn.getHeader().getRevision()));
                    granted = true;
                    List<KeyValue> last = txn.getGetResponses().get(0).getKvs();
                    return granted(candidate, last.isEmpty() ? -1 : parseLast(last.get(0)), previousTtl);
                }
                slots = slots(txn.getGetResponses().get(0).getKvs());
                candidate = lowestFree(slots, maxWorkerId);
                if (candidate < 0) {
                    return Acquisition.none(retryAfter(slots, maxWorkerId, deadline));
                }
                if (EtcdCalls.passed(deadline)) {
                    throw calls.timedOut(what);
                }
            }
        } finally {
            if (!granted) {
                // Unused (or of a transaction whose answer was lost): revoked so that they hold nothing for long.
                // Not awaited; if the revocation does not arrive, the leases lapse on their own.
                revokeQuietly(ownerLease.getID());
                revokeQuietly(fenceLease);
            }
        }
    }

    @Override
    public boolean renew(
            long workerId, String owner, Duration ttl, Duration reuseDelay, long lastTimestamp, boolean heldValidly) {
        if (!heldValidly) {
            return false;
        }
        Held lease = held.get(key(workerId, owner));
        if (lease == null) {
            return false;
        }
        String what = "renew the lease on worker id " + workerId + " for '" + owner + "'";
        long deadline = calls.deadline();
        // A first, then B: B's new end is then at least the reuse delay after A's.
        if (!keepAlive(lease.owner(), deadline, what) || !keepAlive(lease.fence(), deadline, what)) {
            held.remove(key(workerId, owner), lease);
            return false;
        }
        String base = prefix + workerId + "/";
        ByteSequence ownerKey = EtcdCalls.bytes(base + "owner");
        ByteSequence lastKey = EtcdCalls.bytes(base + "last");
        Slot slot = slots(calls.await(kv.get(EtcdCalls.bytes(base), prefixOption()), deadline, what)
                        .getKvs())
                .get(workerId);
        while (true) {
            if (slot == null || !holds(slot, owner, lease)) {
                held.remove(key(workerId, owner), lease);
                return false;
            }
            long stored = slot.last == null ? -1 : parseLast(slot.last);
            if (lastTimestamp <= stored) {
                return true;
            }
            TxnResponse txn = calls.await(
                    kv.txn()
                            .If(
                                    new Cmp(ownerKey, Cmp.Op.EQUAL, CmpTarget.value(EtcdCalls.bytes(owner))),
                                    new Cmp(ownerKey, Cmp.Op.EQUAL, CmpTarget.modRevision(lease.ownerRevision())),
                                    new Cmp(
                                            lastKey,
                                            Cmp.Op.EQUAL,
                                            CmpTarget.modRevision(slot.last == null ? 0 : slot.last.getModRevision())))
                            .Then(Op.put(lastKey, EtcdCalls.bytes(Long.toString(lastTimestamp)), PutOption.DEFAULT))
                            .Else(Op.get(EtcdCalls.bytes(base), prefixOption()))
                            .commit(),
                    deadline,
                    what);
            if (txn.isSucceeded()) {
                return true;
            }
            if (EtcdCalls.passed(deadline)) {
                throw calls.timedOut(what);
            }
            slot = slots(txn.getGetResponses().get(0).getKvs()).get(workerId);
        }
    }

    @Override
    public void release(long workerId, String owner, long lastTimestamp) {
        checkOwner(owner);
        String what = "release worker id " + workerId + " held by '" + owner + "'";
        String base = prefix + workerId + "/";
        ByteSequence ownerKey = EtcdCalls.bytes(base + "owner");
        ByteSequence fenceKey = EtcdCalls.bytes(base + "fence");
        ByteSequence lastKey = EtcdCalls.bytes(base + "last");
        long deadline = calls.deadline();
        Slot slot = slots(calls.await(kv.get(EtcdCalls.bytes(base), prefixOption()), deadline, what)
                        .getKvs())
                .get(workerId);
        while (true) {
            if (slot == null || slot.owner == null || !owner.equals(EtcdCalls.string(slot.owner.getValue()))) {
                Held lease = held.remove(key(workerId, owner));
                if (lease != null) {
                    revokeQuietly(lease.owner());
                }
                return;
            }
            long delaySeconds = slot.fence == null ? -1 : parseDelay(slot.fence);
            long stored = slot.last == null ? -1 : parseLast(slot.last);
            List<Op> then = new ArrayList<>();
            then.add(Op.delete(ownerKey, DeleteOption.DEFAULT));
            then.add(Op.put(EtcdCalls.bytes(base + "state"), EtcdCalls.bytes(RELEASED), PutOption.DEFAULT));
            long newFence = -1;
            if (delaySeconds > 0) {
                newFence =
                        calls.await(leases.grant(delaySeconds), deadline, what).getID();
                then.add(Op.put(fenceKey, EtcdCalls.bytes(Long.toString(delaySeconds)), lease(newFence)));
            }
            // else: a fence without a readable delay stays on its lease (ttl + reuse delay): later, never sooner
            if (lastTimestamp > stored) {
                then.add(Op.put(lastKey, EtcdCalls.bytes(Long.toString(lastTimestamp)), PutOption.DEFAULT));
            }
            TxnResponse txn = calls.await(
                    kv.txn()
                            .If(
                                    new Cmp(ownerKey, Cmp.Op.EQUAL, CmpTarget.modRevision(slot.owner.getModRevision())),
                                    new Cmp(
                                            lastKey,
                                            Cmp.Op.EQUAL,
                                            CmpTarget.modRevision(slot.last == null ? 0 : slot.last.getModRevision())))
                            .Then(then.toArray(new Op[0]))
                            .Else(Op.get(EtcdCalls.bytes(base), prefixOption()))
                            .commit(),
                    deadline,
                    what);
            if (txn.isSucceeded()) {
                held.remove(key(workerId, owner));
                // Both old leases hold no key now: the owner key is deleted, the fence moved to the new lease.
                revokeQuietly(slot.owner.getLease());
                if (newFence >= 0 && slot.fence != null) {
                    revokeQuietly(slot.fence.getLease());
                }
                return;
            }
            revokeQuietly(newFence);
            if (EtcdCalls.passed(deadline)) {
                throw calls.timedOut(what);
            }
            slot = slots(txn.getGetResponses().get(0).getKvs()).get(workerId);
        }
    }

    /**
     * Gives {@code owner} its own live lease back, the keys of an earlier acquisition whose answer was lost: keeps both
     * its leases alive (owner lease first, as a renewal does), then checks in a transaction that the owner key is still
     * the one read, so that a lease released or lapsed meanwhile is not handed out.
     *
     * @return the grant, as its state records the lost one was; or null when {@code owner} holds no live lease on an
     *         id up to {@code maxWorkerId}
     */
    private Acquisition ownLease(Map<Long, Slot> slots, String owner, long maxWorkerId, long deadline, String what) {
        for (Map.Entry<Long, Slot> entry : slots.entrySet()) {
            long workerId = entry.getKey();
            Slot slot = entry.getValue();
            if (workerId > maxWorkerId
                    || slot.owner == null
                    || slot.fence == null
                    || !owner.equals(EtcdCalls.string(slot.owner.getValue()))) {
                continue;
            }
            if (!keepAlive(slot.owner.getLease(), deadline, what)
                    || !keepAlive(slot.fence.getLease(), deadline, what)) {
                continue; // gone, or going: its keys lapse with it, and the id is acquired as anyone would
            }
            String base = prefix + workerId + "/";
            TxnResponse txn = calls.await(
                    kv.txn()
                            .If(new Cmp(
                                    EtcdCalls.bytes(base + "owner"),
                                    Cmp.Op.EQUAL,
                                    CmpTarget.modRevision(slot.owner.getModRevision())))
                            .Then(Op.get(EtcdCalls.bytes(base + "last"), GetOption.DEFAULT))
                            .commit(),
                    deadline,
                    what);
            if (!txn.isSucceeded()) {
                continue;
            }
            held.put(
                    key(workerId, owner),
                    new Held(slot.owner.getLease(), slot.fence.getLease(), slot.owner.getModRevision()));
            // The state is written only with the owner key (or after deleting it): unchanged since read, like the key.
            List<KeyValue> last = txn.getGetResponses().get(0).getKvs();
            return granted(workerId, last.isEmpty() ? -1 : parseLast(last.get(0)), recordedGrant(slot.state));
        }
        return null;
    }

    /** @return whether {@code slot}'s owner key is the one {@code owner}'s acquisition wrote */
    private static boolean holds(Slot slot, String owner, Held lease) {
        return slot.owner != null
                && owner.equals(EtcdCalls.string(slot.owner.getValue()))
                && slot.owner.getModRevision() == lease.ownerRevision()
                && slot.owner.getLease() == lease.owner();
    }

    /**
     * One {@code keepAliveOnce}.
     *
     * @return false when etcd no longer knows the lease (it expired or was revoked)
     * @throws EtcdUnavailableException when etcd did not answer in time
     */
    private boolean keepAlive(long lease, long deadline, String what) {
        try {
            return calls.await(leases.keepAliveOnce(lease), deadline, what).getTTL() > 0;
        } catch (EtcdUnavailableException e) {
            if (e.getCause() instanceof EtcdException etcd && etcd.getErrorCode() == ErrorCode.NOT_FOUND) {
                return false;
            }
            throw e;
        }
    }

    /**
     * How long until a worker id may become free: the shortest remaining fence among ids waiting out their reuse
     * delay (no owner), plus the lessor's lag; 0 when every id has a live owner.
     */
    private long retryAfter(Map<Long, Slot> slots, long maxWorkerId, long deadline) {
        long shortest = Long.MAX_VALUE;
        for (Map.Entry<Long, Slot> entry : slots.entrySet()) {
            Slot slot = entry.getValue();
            if (entry.getKey() > maxWorkerId || slot.owner != null || slot.fence == null) {
                continue;
            }
            long remainingMillis;
            try {
                long ttl = calls.await(
                                leases.timeToLive(slot.fence.getLease(), LeaseOption.DEFAULT),
                                deadline,
                                "read the remaining reuse delay of worker id " + entry.getKey())
                        .getTTL();
                remainingMillis = Math.max(0, ttl) * 1000 + REVOCATION_SLACK_MILLIS;
            } catch (EtcdUnavailableException e) {
                remainingMillis = REVOCATION_SLACK_MILLIS;
            }
            shortest = Math.min(shortest, remainingMillis);
            if (EtcdCalls.passed(deadline)) {
                break;
            }
        }
        return shortest == Long.MAX_VALUE ? 0 : shortest;
    }

    private static long lowestFree(Map<Long, Slot> slots, long maxWorkerId) {
        for (long id = 0; id <= maxWorkerId; id++) {
            Slot slot = slots.get(id);
            if (slot == null || slot.free()) {
                return id;
            }
        }
        return -1;
    }

    /**
     * The {@code state} key's value once released; while held it is {@link #HELD}, the lease's ttl in ms and the
     * previous ttl its acquisition answered.
     */
    private static final String RELEASED = "released";

    private static final String HELD = "held ";

    /**
     * @param neverRecorded whether the id has no {@code last} key
     * @param state the {@code state} key as it was before the acquisition, or null when it had none
     * @return the {@link Acquisition#previousTtlMillis()} of a grant of the id
     */
    private static long previousTtl(boolean neverRecorded, KeyValue state) {
        if (state == null) {
            // Never leased; or leased before this store kept the state, ttl unknown.
            return neverRecorded ? Acquisition.FREE : Acquisition.UNKNOWN_TTL;
        }
        String value = EtcdCalls.string(state.getValue());
        if (value.equals(RELEASED)) {
            return Acquisition.FREE;
        }
        return heldToken(value, 1);
    }

    /**
     * @param state the {@code state} key of a live lease
     * @return the {@link Acquisition#previousTtlMillis()} its acquisition answered; unknown when not recorded
     */
    private static long recordedGrant(KeyValue state) {
        return state == null ? Acquisition.UNKNOWN_TTL : heldToken(EtcdCalls.string(state.getValue()), 2);
    }

    /** @return the number at {@code index} of a held state (0 the word held), or unknown when there is none */
    private static long heldToken(String state, int index) {
        if (!state.startsWith(HELD)) {
            return Acquisition.UNKNOWN_TTL;
        }
        String[] tokens = state.split(" ");
        if (tokens.length <= index) {
            return Acquisition.UNKNOWN_TTL;
        }
        try {
            long millis = Long.parseLong(tokens[index]);
            return millis >= 0 ? millis : Acquisition.UNKNOWN_TTL;
        } catch (NumberFormatException e) {
            return Acquisition.UNKNOWN_TTL;
        }
    }

    private static Acquisition granted(long workerId, long lastTimestamp, long previousTtlMillis) {
        return previousTtlMillis == Acquisition.FREE
                ? Acquisition.grantedFree(workerId, lastTimestamp)
                : Acquisition.grantedTakenOver(workerId, lastTimestamp, previousTtlMillis);
    }

    /** @return the keys under {@code <namespace>workers/} by worker id; keys of another shape are ignored */
    private Map<Long, Slot> slots(List<KeyValue> values) {
        Map<Long, Slot> slots = new TreeMap<>();
        for (KeyValue value : values) {
            String key = EtcdCalls.string(value.getKey());
            if (!key.startsWith(prefix)) {
                continue;
            }
            String rest = key.substring(prefix.length());
            int slash = rest.indexOf('/');
            if (slash <= 0) {
                continue;
            }
            long id;
            try {
                id = Long.parseLong(rest.substring(0, slash));
            } catch (NumberFormatException e) {
                continue;
            }
            Slot slot = slots.computeIfAbsent(id, ignored -> new Slot());
            switch (rest.substring(slash + 1)) {
                case "owner" -> slot.owner = value;
                case "fence" -> slot.fence = value;
                case "last" -> slot.last = value;
                case "state" -> slot.state = value;
                default -> {
                    // not ours
                }
            }
        }
        return slots;
    }

    private long parseLast(KeyValue value) {
        try {
            return Long.parseLong(EtcdCalls.string(value.getValue()));
        } catch (NumberFormatException e) {
            throw new EtcdUnavailableException("The key " + EtcdCalls.string(value.getKey()) + " in etcd at "
                    + calls.endpoints() + " holds '" + EtcdCalls.string(value.getValue())
                    + "', not a timestamp; it was written by something else");
        }
    }

    private static long parseDelay(KeyValue fence) {
        try {
            return Long.parseLong(EtcdCalls.string(fence.getValue()));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private void revokeQuietly(long lease) {
        if (lease > 0) {
            try {
                leases.revoke(lease);
            } catch (RuntimeException e) {
                // the lease lapses on its own
            }
        }
    }

    private static PutOption lease(long lease) {
        return PutOption.builder().withLeaseId(lease).build();
    }

    private static GetOption prefixOption() {
        return GetOption.builder().isPrefix(true).build();
    }

    private static String key(long workerId, String owner) {
        return workerId + "/" + owner;
    }

    private static void checkOwner(String owner) {
        if (owner == null || owner.isEmpty() || owner.length() > MAX_OWNER_LENGTH) {
            throw new InvalidArgumentException(
                    "owner", owner, "owner must be 1 to " + MAX_OWNER_LENGTH + " characters, but was " + owner);
        }
    }

    /**
     * @return the namespace, ending with '/'
     */
    public String namespace() {
        return namespace;
    }

    /**
     * @return for example {@code etcd worker id leases under idgen/ on http://10.0.0.1:2379}; never a call to etcd
     */
    @Override
    public String toString() {
        return "etcd worker id leases under " + namespace + " on " + calls.endpoints();
    }
}
