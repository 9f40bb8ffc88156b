package dev.idgen.core.segment;

import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.StoreUnavailableException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link SegmentStore} over N independent stores, one per database server, each issuing a disjoint class of IDs, so
 * that a fleet keeps issuing IDs when one database is lost, with no replication at all (the Tinyid idea, by blocks
 * rather than by single IDs, so that the segment hot path stays one {@code getAndAdd} over a contiguous range).
 *
 * <p><b>Layout.</b> Each server keeps its own row per name, counting <em>local</em> IDs from 0. Local IDs are grouped
 * into slots of {@code slotSize} IDs; server {@code i}'s k-th slot (k = 1, 2, ...) is the global IDs
 * {@code [((k-1)·N + i)·S + 1, ((k-1)·N + i + 1)·S]}. So server 0 issues 1..S, server 1 S+1..2S, ..., server 0 again
 * N·S+1..(N+1)·S, and no block of one server ever overlaps a block of another. The map from a server's local IDs to
 * global IDs is one-to-one and increasing, so whatever a server's store guarantees for its local IDs (no block handed
 * out twice, durable before it returns) holds for the global IDs too.
 *
 * <p><b>Allocation.</b> Rows advance by what is asked for (capped at one slot), not by whole slots: a slot is shared by
 * as many allocations as fit in it, and a restart wastes only the IDs buffered, as with a single store. A local block
 * that crosses a slot boundary is two global pieces (the next slot of the same server is N·S further on): the first is
 * returned, the second kept and handed out by the next allocation of the same name from this store (IDs still
 * increase). An allocation asks the server that answered last and sticks to it; when it throws
 * {@link StoreUnavailableException}, the next server in the list is asked within the same call, and so on; when all
 * fail, the call throws. Each instance starts on a server of its own choosing (random by default), which spreads a
 * fleet over the servers.
 *
 * <p><b>Floors.</b> {@link #allocateAbove(String, long, long)} converts the global floor into each server's local
 * floor (the highest local ID whose global ID is at or below it), so a block from any server, after a failover too,
 * lies above what the instance already served; a database store raises its row to it in the same statement.
 *
 * <p><b>Rules.</b> The list of servers and the slot size define the layout: every instance must use the same servers
 * in the same order with the same slot size, and neither may ever change for a table that issued IDs. Reordering the
 * servers, removing one from the middle, adding one, or changing the slot size maps rows onto IDs other servers
 * already issued, and repeats them. A lost server stays in the list: calls fail over past it. The store cannot see such
 * a change in the rows (they hold local counts only), so it is on the configuration to keep them fixed.
 */
public final class InterleavedSegmentStore implements SegmentStore {

    /** The most servers. */
    public static final int MAX_SERVERS = 1024;

    /**
     * The largest servers × slot size: 2^40 (about 1.1e12), so that every server's first slot lies far below 2^63 and a
     * single round of slots stays a small part of the ID space.
     */
    public static final long MAX_ROUND = 1L << 40;

    /** How long a check waits for the other servers once one answered. */
    private static final long CHECK_GRACE_MILLIS = 300;

    private final Server[] servers;
    private final long slotSize;
    private final long initialValue;
    private final AtomicInteger current;
    /** Per name: the second piece of a block that crossed a slot boundary, handed out by the next allocation. */
    private final ConcurrentHashMap<String, Segment> leftovers = new ConcurrentHashMap<>();

    private final AtomicLong failovers = new AtomicLong();
    private final AtomicLong splitBlocks = new AtomicLong();

    private InterleavedSegmentStore(Builder builder) {
        if (builder.servers.isEmpty()) {
            throw new InvalidArgumentException("servers", builder.servers, "servers must list at least one store");
        }
        if (builder.servers.size() > MAX_SERVERS) {
            throw new InvalidArgumentException(
                    "servers",
                    builder.servers.size(),
                    "servers must list at most " + MAX_SERVERS + " stores, but listed " + builder.servers.size());
        }
        if (builder.slotSize < 1) {
            throw new InvalidArgumentException(
                    "slotSize", builder.slotSize, "slotSize must be at least 1, but was " + builder.slotSize);
        }
        int count = builder.servers.size();
        if (builder.slotSize > MAX_ROUND / count) {
            throw new InvalidArgumentException(
                    "slotSize",
                    builder.slotSize,
                    "slotSize times the number of servers ("
                            + count + ") must be at most " + MAX_ROUND + ", so slotSize at most " + MAX_ROUND / count
                            + ", but was " + builder.slotSize);
        }
        if (builder.initialValue < 0) {
            throw new InvalidArgumentException(
                    "initialValue",
                    builder.initialValue,
                    "initialValue must be at least 0, but was " + builder.initialValue);
        }
        int first = builder.firstServer != null
                ? builder.firstServer
                : ThreadLocalRandom.current().nextInt(count);
        if (first < 0 || first >= count) {
            throw new InvalidArgumentException(
                    "firstServer", first, "firstServer must be between 0 and " + (count - 1) + ", but was " + first);
        }
        this.servers = builder.servers.toArray(new Server[0]);
        this.slotSize = builder.slotSize;
        this.initialValue = builder.initialValue;
        this.current = new AtomicInteger(first);
    }

    /**
     * @param slotSize how many consecutive IDs each server owns in turn; the same on every instance, never changed
     * @return a builder; add the servers in their fixed order
     */
    public static Builder builder(long slotSize) {
        return new Builder(slotSize);
    }

    @Override
    public Segment allocate(String name, long step) {
        return allocateAbove(name, step, 0);
    }

    /**
     * {@inheritDoc}
     *
     * <p>The block holds at most {@code min(step, slotSize)} IDs, and may hold fewer: the part of a local block left
     * in the slot, or the piece kept from a block that crossed a slot boundary.
     *
     * @throws StoreUnavailableException when every server failed, naming each one's failure
     * @throws InvalidArgumentException naming {@code step} when it is below 1
     */
    @Override
    public Segment allocateAbove(String name, long step, long floor) {
        if (step < 1) {
            throw new InvalidArgumentException("step", step, "step must be at least 1, but was " + step);
        }
        long above = Math.max(Math.max(0, floor), initialValue);
        Segment leftover = leftovers.remove(name);
        if (leftover != null && leftover.last() > above) {
            return new Segment(Math.max(leftover.first(), above + 1), leftover.last());
        }
        int start = current.get();
        StoreUnavailableException failure = null;
        StringBuilder failures = new StringBuilder();
        for (int attempt = 0; attempt < servers.length; attempt++) {
            int index = (start + attempt) % servers.length;
            Server server = servers[index];
            try {
                Segment segment = allocateOn(index, name, step, above);
                server.succeeded();
                if (attempt > 0 && current.compareAndSet(start, index)) {
                    failovers.incrementAndGet();
                }
                return segment;
            } catch (StoreUnavailableException e) {
                server.failed(e);
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
                failures.append(failures.length() == 0 ? "" : "; ")
                        .append("server ")
                        .append(index)
                        .append(" (")
                        .append(server.name)
                        .append("): ")
                        .append(e.getMessage());
            }
        }
        throw new StoreUnavailableException("Every segment server failed for '" + name + "': " + failures, failure);
    }

    private Segment allocateOn(int index, String name, long step, long floor) {
        long localFloor = localFloor(index, floor);
        long request = Math.min(step, slotSize);
        Segment local = servers[index].store.allocateAbove(name, request, localFloor);
        if (local == null || local.last() <= localFloor) {
            throw new StoreUnavailableException("Segment server " + index + " (" + servers[index].name + ") handed out "
                    + local + " for '" + name + "', not above its local floor " + localFloor);
        }
        long first = Math.max(local.first(), localFloor + 1);
        long slotEnd = ceilToSlot(first);
        long pieceEnd = Math.min(local.last(), slotEnd);
        Segment head = new Segment(global(index, first), global(index, first) + (pieceEnd - first));
        if (local.last() > slotEnd) {
            splitBlocks.incrementAndGet();
            long tailEnd = Math.min(local.last(), slotEnd + slotSize);
            leftovers.put(
                    name,
                    new Segment(global(index, slotEnd + 1), global(index, slotEnd + 1) + (tailEnd - slotEnd - 1)));
        }
        return head;
    }

    /**
     * @param index the server
     * @param local a local ID of that server, at least 1
     * @return its global ID
     * @throws StoreUnavailableException when it would pass {@link SegmentBuffer#MAX_ID}
     */
    long global(int index, long local) {
        long zero = local - 1;
        long slot = zero / slotSize;
        long offset = zero % slotSize;
        try {
            long id = Math.addExact(
                    Math.multiplyExact(Math.addExact(Math.multiplyExact(slot, servers.length), index), slotSize),
                    offset + 1);
            if (id <= SegmentBuffer.MAX_ID - slotSize) {
                return id;
            }
        } catch (ArithmeticException e) {
            // reported below
        }
        throw new StoreUnavailableException("Segment server " + index + " (" + servers[index].name + ") is at local"
                + " ID " + local + ", whose global ID would come too close to 2^63");
    }

    /**
     * @param index the server
     * @param floor a global ID, or 0
     * @return the highest local ID of the server whose global ID is at most {@code floor}, or 0: every local ID
     *         above it maps above {@code floor}
     */
    long localFloor(int index, long floor) {
        if (floor <= 0) {
            return 0;
        }
        long zero = floor - 1;
        long block = zero / slotSize;
        long offset = zero % slotSize;
        long round = block / servers.length;
        long owner = block % servers.length;
        if (owner == index) {
            return round * slotSize + offset + 1;
        }
        return owner > index ? (round + 1) * slotSize : round * slotSize;
    }

    private long ceilToSlot(long local) {
        return (local + slotSize - 1) / slotSize * slotSize;
    }

    /**
     * Checks every server at once, each on a thread of its own, recording each one's state (see {@link #servers()}),
     * and returns once all answered, or 300 ms after the first one answered. A server whose previous check still runs
     * (a database that hangs) is not checked again meanwhile: at most one check thread per server.
     *
     * @throws StoreUnavailableException when none answers
     */
    @Override
    public void checkAvailable() {
        CompletableFuture<Void> anyUp = new CompletableFuture<>();
        AtomicInteger left = new AtomicInteger(servers.length);
        for (int index = 0; index < servers.length; index++) {
            servers[index].check().whenComplete((up, e) -> {
                if (Boolean.TRUE.equals(up)) {
                    anyUp.complete(null);
                } else if (left.decrementAndGet() == 0) {
                    anyUp.completeExceptionally(
                            new StoreUnavailableException("Every segment server is" + " unavailable: " + lastErrors()));
                }
            });
        }
        try {
            anyUp.get();
            // One answered: give the others a moment, so that their state is fresh too (a hanging one is not waited
            // for).
            CompletableFuture.allOf(
                            Arrays.stream(servers).map(Server::latestCheck).toArray(CompletableFuture[]::new))
                    .get(CHECK_GRACE_MILLIS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            // Some server is still being checked; it shows its previous state meanwhile.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreUnavailableException("Interrupted while checking the segment servers", e);
        } catch (ExecutionException e) {
            throw (StoreUnavailableException) e.getCause();
        }
    }

    private String lastErrors() {
        StringBuilder errors = new StringBuilder();
        for (int index = 0; index < servers.length; index++) {
            errors.append(index == 0 ? "" : "; ")
                    .append("server ")
                    .append(index)
                    .append(" (")
                    .append(servers[index].name)
                    .append("): ")
                    .append(servers[index].lastError);
        }
        return errors.toString();
    }

    /**
     * @return each server's state as last seen by an allocation or a check, in the list's order
     */
    public List<ServerState> servers() {
        List<ServerState> states = new ArrayList<>(servers.length);
        int now = current.get();
        for (int index = 0; index < servers.length; index++) {
            Server server = servers[index];
            states.add(new ServerState(
                    index,
                    server.name,
                    server.available,
                    index == now,
                    server.allocations.get(),
                    server.failures.get(),
                    server.lastError));
        }
        return states;
    }

    /**
     * @return the stores, in the list's order
     */
    public List<SegmentStore> stores() {
        List<SegmentStore> stores = new ArrayList<>(servers.length);
        for (Server server : servers) {
            stores.add(server.store);
        }
        return stores;
    }

    public long slotSize() {
        return slotSize;
    }

    public int serverCount() {
        return servers.length;
    }

    /**
     * @return the global ID every name's IDs lie above
     */
    public long initialValue() {
        return initialValue;
    }

    /**
     * @return how many times allocations moved on to another server because the one in use failed
     */
    public long failovers() {
        return failovers.get();
    }

    /**
     * @return how many local blocks crossed a slot boundary and were served as two pieces
     */
    public long splitBlocks() {
        return splitBlocks.get();
    }

    @Override
    public String toString() {
        return "InterleavedSegmentStore[servers=" + servers.length + ", slotSize=" + slotSize + "]";
    }

    /**
     * One server as last seen.
     *
     * @param index its position in the list, which fixes the IDs it issues
     * @param name its name (in the starter, the DataSource bean's)
     * @param available whether its last allocation or check succeeded; {@code null} before either
     * @param current whether allocations go to it now
     * @param allocations how many allocations it answered
     * @param failures how many allocations and checks it failed
     * @param lastError its latest failure, or {@code null}
     */
    public record ServerState(
            int index,
            String name,
            Boolean available,
            boolean current,
            long allocations,
            long failures,
            String lastError) {}

    private static final class Server {
        final String name;
        final SegmentStore store;
        final AtomicLong allocations = new AtomicLong();
        final AtomicLong failures = new AtomicLong();
        volatile Boolean available;
        volatile String lastError;

        Server(String name, SegmentStore store) {
            this.name = name;
            this.store = store;
        }

        /** The running or latest check; guarded by this. */
        private CompletableFuture<Boolean> check;

        synchronized CompletableFuture<Boolean> latestCheck() {
            return check;
        }

        /** Starts a check on a thread of its own unless one still runs. */
        synchronized CompletableFuture<Boolean> check() {
            if (check != null && !check.isDone()) {
                return check;
            }
            CompletableFuture<Boolean> started = new CompletableFuture<>();
            check = started;
            Thread thread = new Thread(
                    () -> {
                        try {
                            store.checkAvailable();
                            available = Boolean.TRUE;
                            started.complete(true);
                        } catch (RuntimeException e) {
                            failed(e);
                            started.complete(false);
                        }
                    },
                    "idgen-segment-server-check-" + name);
            thread.setDaemon(true);
            thread.start();
            return started;
        }

        void succeeded() {
            allocations.incrementAndGet();
            available = Boolean.TRUE;
        }

        void failed(RuntimeException e) {
            failures.incrementAndGet();
            lastError = String.valueOf(e.getMessage());
            available = Boolean.FALSE;
        }
    }

    /**
     * Builds an {@link InterleavedSegmentStore}.
     */
    public static final class Builder {

        private final long slotSize;
        private final List<Server> servers = new ArrayList<>();
        private long initialValue;
        private Integer firstServer;

        private Builder(long slotSize) {
            this.slotSize = slotSize;
        }

        /**
         * Adds the next server: its position in the order of these calls fixes the IDs it issues.
         *
         * @param name for health and messages
         * @param store its own store (its own database), whose rows count this server's local IDs
         * @return this builder
         */
        public Builder server(String name, SegmentStore store) {
            if (store == null) {
                throw new InvalidArgumentException(
                        "servers", null, "servers must not hold null (server " + servers.size() + ")");
            }
            servers.add(new Server(name == null ? "server-" + servers.size() : name, store));
            return this;
        }

        /**
         * @param initialValue the ID every name's IDs lie above (0 by default)
         * @return this builder
         */
        public Builder initialValue(long initialValue) {
            this.initialValue = initialValue;
            return this;
        }

        /**
         * @param firstServer the server this instance asks first; by default one at random, which spreads a fleet
         * @return this builder
         */
        public Builder firstServer(int firstServer) {
            this.firstServer = firstServer;
            return this;
        }

        /**
         * @return the store
         * @throws InvalidArgumentException naming {@code servers}, {@code slotSize}, {@code initialValue} or
         *         {@code firstServer} when it breaks its rule
         */
        public InterleavedSegmentStore build() {
            return new InterleavedSegmentStore(this);
        }
    }
}
