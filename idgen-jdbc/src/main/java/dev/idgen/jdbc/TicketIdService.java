package dev.idgen.jdbc;

import dev.idgen.core.ForgetsNames;
import dev.idgen.core.IdArguments;
import dev.idgen.core.IdService;
import dev.idgen.core.SequenceDecodedId;
import dev.idgen.core.StoreUnavailableException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.StringJoiner;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * {@link IdService} over Flickr-style ticket servers: every call takes its IDs from a database row, with no local
 * caching (caching is what the segment strategy is for). Concurrent {@link #nextId(String)} calls for one name on one
 * server share a round trip ({@link TicketServer}).
 *
 * <p>With N servers, server k hands out k + N, k + 2N, ...: their IDs never collide. Each call goes to one server,
 * round-robin over the servers whose circuit breaker is closed (or due for a probe); a failing server is skipped until
 * its retry-after has passed, and a call it failed tries the next one. When every server fails, the call throws
 * {@link StoreUnavailableException}. Each server tried waits at most the timeout.
 *
 * <p><b>Order.</b> With one server, a call that starts after another call returned gets a larger ID. With several,
 * that holds among the IDs of any one server, but not across servers: each row advances at the pace of the calls
 * sent to it, so a later call served by another server may get a smaller ID. IDs are unique either way.
 */
public final class TicketIdService implements IdService, ForgetsNames, AutoCloseable {

    /** The strategy name. */
    public static final String STRATEGY = "ticket";

    private final List<TicketServer> servers;
    private final int increment;
    private final boolean resetEnabled;
    private final AtomicInteger next = new AtomicInteger();

    /**
     * @param servers the servers, in offset order (server k has offset k)
     * @param resetEnabled whether {@link #reset(String)} is allowed
     */
    public TicketIdService(List<TicketServer> servers, boolean resetEnabled) {
        if (servers.isEmpty()) {
            throw new IllegalArgumentException("servers must not be empty");
        }
        this.servers = List.copyOf(servers);
        this.increment = servers.size();
        this.resetEnabled = resetEnabled;
    }

    @Override
    public String strategy() {
        return STRATEGY;
    }

    @Override
    public long nextId(String name) {
        return take(IdArguments.checkName(name), 1);
    }

    /**
     * {@inheritDoc}
     *
     * <p>One round trip of its own (not shared with other calls) that takes the {@code count} IDs: they are
     * {@code N} apart with N servers.
     */
    @Override
    public long[] nextIds(String name, int count) {
        IdArguments.checkName(name);
        IdArguments.checkCount(count);
        long last = take(name, count);
        long[] ids = new long[count];
        for (int i = 0; i < count; i++) {
            ids[i] = last - (long) (count - 1 - i) * increment;
        }
        return ids;
    }

    @Override
    public SequenceDecodedId decode(long id) {
        return new SequenceDecodedId(STRATEGY, IdArguments.checkId(id));
    }

    /**
     * Resets a name to zero on every server: its next IDs start over from {@code offset + N}. Off unless
     * {@code idgen.admin.reset-enabled=true}, and never automatic.
     *
     * <p><b>Every ID handed out before the reset will be handed out again.</b> Only reset a name whose earlier IDs are
     * no longer stored anywhere they must be unique (for example a per-day counter after the day has been archived).
     *
     * @param name the name to reset
     * @throws IllegalStateException when resets are not enabled
     */
    public void reset(String name) {
        IdArguments.checkName(name);
        if (!resetEnabled) {
            throw new IllegalStateException("Resetting a ticket sequence is disabled: it makes every earlier ID of '"
                    + name + "' come round again. Set idgen.admin.reset-enabled=true to allow it");
        }
        servers.forEach(server -> server.reset(name));
    }

    /**
     * {@inheritDoc}
     *
     * <p>A ticket name's state is its rows, which stay; in memory each server only keeps the combining of the calls of
     * its first {@value TicketServer#COALESCED_NAMES} names, which forgetting frees for new names.
     */
    @Override
    public int forgetNames(Predicate<? super String> which) {
        Set<String> forgotten = new HashSet<>();
        servers.forEach(server -> forgotten.addAll(server.forgetNames(which)));
        return forgotten.size();
    }

    /**
     * @return the servers, for metrics and health
     */
    public List<TicketServer> servers() {
        return servers;
    }

    /**
     * @return how many IDs the servers have handed out through this instance
     */
    public long generatedCount() {
        long total = 0;
        for (TicketServer server : servers) {
            total += server.issued();
        }
        return total;
    }

    /**
     * Stops the servers' executors; called when the application context closes.
     */
    @Override
    public void close() {
        servers.forEach(TicketServer::close);
    }

    private long take(String name, int count) {
        // One server: no shared round-robin counter for every call to write.
        int start = servers.size() == 1 ? 0 : Math.floorMod(next.getAndIncrement(), servers.size());
        StoreUnavailableException failure = null;
        for (int i = 0; i < servers.size(); i++) {
            TicketServer server = servers.get((start + i) % servers.size());
            if (!server.tryAcquire()) {
                continue;
            }
            try {
                return count == 1 ? server.nextId(name) : server.take(name, count);
            } catch (StoreUnavailableException e) {
                failure = e;
            }
        }
        StoreUnavailableException all = new StoreUnavailableException(
                "All " + servers.size() + " ticket servers are unavailable"
                        + (failure == null ? " (circuits open)" : ": " + failure.getMessage()),
                failure);
        throw all;
    }

    /**
     * For the start-up line and logs, never a database call.
     *
     * @return for example {@code ticket table idgen_ticket on MariaDB jdbc:mariadb://127.0.0.1:3306/test}; with
     *         several servers, one such clause per server, each followed by {@code (server <id>, offset k of n)}
     */
    @Override
    public String toString() {
        if (servers.size() == 1) {
            return servers.get(0).describe();
        }
        StringJoiner line = new StringJoiner("; ");
        for (int k = 0; k < servers.size(); k++) {
            line.add(servers.get(k).describe() + " (server " + servers.get(k).id() + ", offset " + k + " of "
                    + servers.size() + ")");
        }
        return line.toString();
    }
}
