package dev.idgen.core.lease;

import dev.idgen.core.StoreUnavailableException;
import dev.idgen.core.TimeSource;
import dev.idgen.core.spi.WorkerIdLeaseStore;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * A {@link WorkerIdLeaseStore} in this process's memory: the reference for the contract, and a stand-in for tests,
 * with switches for an outage and for losing its data. It only coordinates generators within one JVM.
 */
public final class InMemoryWorkerIdLeaseStore implements WorkerIdLeaseStore {

    /**
     * @param ttlMillis the lease's ttl, or 0 once released
     * @param grantedPreviousTtlMillis the {@link Acquisition#previousTtlMillis()} the lease was granted with, repeated
     *        when its owner asks again; {@link Acquisition#UNKNOWN_TTL} for a lease taken back after the data was lost
     */
    private record Entry(
            String owner, long expiresAt, long lastTimestamp, long ttlMillis, long grantedPreviousTtlMillis) {}

    private final TimeSource clock;
    private final Map<Long, Entry> entries = new HashMap<>();
    /** When the data was last lost: ids unknown since then may still be held, until a ttl plus reuse delay passed. */
    private long bornAt = Long.MIN_VALUE / 2;

    private volatile boolean available = true;

    /**
     * @param clock the store's own clock, which judges expiry
     */
    public InMemoryWorkerIdLeaseStore(TimeSource clock) {
        this.clock = clock;
    }

    @Override
    public synchronized Acquisition acquire(String owner, long maxWorkerId, Duration ttl, Duration reuseDelay) {
        checkUp();
        long now = clock.currentTimeMillis();
        long warmUntil = bornAt + ttl.toMillis() + reuseDelay.toMillis();
        if (now < warmUntil) {
            return Acquisition.none(warmUntil - now);
        }
        for (long id = 0; id <= maxWorkerId; id++) {
            Entry entry = entries.get(id);
            if (entry != null && entry.owner().equals(owner) && entry.expiresAt() > now && entry.ttlMillis() > 0) {
                // Its own earlier grant, whose answer was lost: the same id again, not a second one, and granted as
                // it was then, lest a lost take-over skip the wait for the holder it was taken from.
                entries.put(
                        id,
                        new Entry(
                                owner,
                                now + ttl.toMillis(),
                                entry.lastTimestamp(),
                                ttl.toMillis(),
                                entry.grantedPreviousTtlMillis()));
                return granted(id, entry.lastTimestamp(), entry.grantedPreviousTtlMillis());
            }
        }
        for (long id = 0; id <= maxWorkerId; id++) {
            Entry entry = entries.get(id);
            if (entry == null || entry.expiresAt() + reuseDelay.toMillis() <= now) {
                long last = entry == null ? -1 : entry.lastTimestamp();
                long previousTtl = entry == null ? Acquisition.FREE : entry.ttlMillis();
                entries.put(id, new Entry(owner, now + ttl.toMillis(), last, ttl.toMillis(), previousTtl));
                return granted(id, last, previousTtl);
            }
        }
        return Acquisition.none(0);
    }

    @Override
    public synchronized boolean renew(
            long workerId, String owner, Duration ttl, Duration reuseDelay, long lastTimestamp, boolean heldValidly) {
        checkUp();
        if (!heldValidly) {
            return false;
        }
        long now = clock.currentTimeMillis();
        Entry entry = entries.get(workerId);
        // An entry that is missing was lost with the data: only a holder still valid by its own clock takes it back.
        // One that expired (or was released) is never revived, even for its owner: it may be handed on by now.
        if (entry != null && (!entry.owner().equals(owner) || entry.expiresAt() <= now)) {
            return false;
        }
        long last = Math.max(lastTimestamp, entry == null ? -1 : entry.lastTimestamp());
        long grant = entry == null ? Acquisition.UNKNOWN_TTL : entry.grantedPreviousTtlMillis();
        entries.put(workerId, new Entry(owner, now + ttl.toMillis(), last, ttl.toMillis(), grant));
        return true;
    }

    private static Acquisition granted(long workerId, long last, long previousTtlMillis) {
        return previousTtlMillis == Acquisition.FREE
                ? Acquisition.grantedFree(workerId, last)
                : Acquisition.grantedTakenOver(workerId, last, previousTtlMillis);
    }

    @Override
    public synchronized void release(long workerId, String owner, long lastTimestamp) {
        checkUp();
        Entry entry = entries.get(workerId);
        if (entry != null && entry.owner().equals(owner)) {
            entries.put(
                    workerId,
                    new Entry(
                            owner,
                            clock.currentTimeMillis(),
                            Math.max(lastTimestamp, entry.lastTimestamp()),
                            0,
                            entry.grantedPreviousTtlMillis()));
        }
    }

    /**
     * @param available false to make every call throw {@link StoreUnavailableException}, as an outage would
     */
    public void setAvailable(boolean available) {
        this.available = available;
    }

    /**
     * Forgets every lease, as a Redis without persistence does on restart.
     */
    public synchronized void loseData() {
        entries.clear();
        bornAt = clock.currentTimeMillis();
    }

    private void checkUp() {
        if (!available) {
            throw new StoreUnavailableException("The in-memory worker id lease store is switched off");
        }
    }
}
