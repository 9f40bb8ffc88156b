package dev.idgen.server.access;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The names one client allowed more than a fixed list (every name, or every name of a generator) has in use: at most
 * {@code max} at once, each released once the client has not asked for it for {@code idle}. A client that reaches its
 * cap is refused a new name, and only that client: without the cap, one client could fill the server's name table
 * (every other client's new name refused) and create store rows, etcd keys or znodes without end.
 *
 * <p>A name in use is looked up without a lock; only a new name takes this object's lock, to keep the count exact.
 */
public final class ClientNames {

    private final int max;

    private final long idleNanos;

    private final NanoClock clock;

    /** Per name, when the client last asked for it. */
    private final ConcurrentHashMap<String, AtomicLong> lastUsed = new ConcurrentHashMap<>();

    /**
     * The names released by {@link #admit(String)} to make room, until the next {@link #releaseIdle()} hands them on:
     * the generators must forget them too, or the server's name table would fill with names no client holds. At most
     * {@code max} per admit, and emptied by the sweep every minute.
     */
    private final ConcurrentLinkedQueue<String> releasedToMakeRoom = new ConcurrentLinkedQueue<>();

    /**
     * @param max the most names in use at once, at least 1
     * @param idleNanos how long a name unused stays the client's
     * @param clock the clock {@code idleNanos} is measured on
     */
    public ClientNames(int max, long idleNanos, NanoClock clock) {
        this.max = max;
        this.idleNanos = idleNanos;
        this.clock = clock;
    }

    /**
     * @param name a valid name the client may use
     * @return whether the client may use it now: it has it in use, or has room for one more
     */
    public boolean admit(String name) {
        long now = clock.nanos();
        AtomicLong used = lastUsed.get(name);
        if (used != null) {
            used.setOpaque(now); // a stale reading only releases the name a little sooner or later
            return true;
        }
        synchronized (this) {
            used = lastUsed.get(name);
            if (used != null) {
                used.setOpaque(now);
                return true;
            }
            if (lastUsed.size() >= max) {
                releasedToMakeRoom.addAll(releaseIdle(now));
                if (lastUsed.size() >= max) {
                    return false;
                }
            }
            lastUsed.put(name, new AtomicLong(now));
            return true;
        }
    }

    /** @return the names released because the client has not asked for them for the idle time, since the last call */
    public List<String> releaseIdle() {
        List<String> released = releaseIdle(clock.nanos());
        for (String name; (name = releasedToMakeRoom.poll()) != null; ) {
            released.add(name);
        }
        return released;
    }

    /** @return how long until the name the client used longest ago is released, at least 1 ns */
    public long nanosUntilRelease() {
        long now = clock.nanos();
        long soonest = idleNanos;
        for (AtomicLong used : lastUsed.values()) {
            soonest = Math.min(soonest, used.getOpaque() + idleNanos - now);
        }
        return Math.max(1, soonest);
    }

    private List<String> releaseIdle(long now) {
        List<String> released = new ArrayList<>();
        lastUsed.forEach((name, used) -> {
            if (now - used.getOpaque() > idleNanos && lastUsed.remove(name, used)) {
                released.add(name);
            }
        });
        return released;
    }

    /** @return whether the client has {@code name} in use */
    public boolean holds(String name) {
        return lastUsed.containsKey(name);
    }

    /** @return the most names in use at once */
    public int max() {
        return max;
    }

    /** @return how many names the client has in use now */
    public int inUse() {
        return lastUsed.size();
    }
}
