package dev.idgen.server;

import dev.idgen.core.ForgetsNames;
import dev.idgen.core.IdService;
import dev.idgen.core.RoutingIdService;
import dev.idgen.server.access.ServerClients;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Releases, now and then, the names each client has not asked for in {@code idgen.server.name-idle}, and drops the
 * generators' in-memory state (buffers, windows) of those that no client has in use any more, so that the server's
 * name table holds the names in use, not every name ever asked for. The store's rows stay: a name asked for again goes
 * on above what it issued (its unused buffered IDs are a gap).
 */
final class IdleNames implements AutoCloseable {

    private static final Log LOG = LogFactory.getLog(IdleNames.class);

    private final ServerClients clients;

    private final List<ForgetsNames> generators;

    private final ScheduledExecutorService sweeper;

    IdleNames(ServerClients clients, IdService ids, Duration idle) {
        this.clients = clients;
        this.generators = RoutingIdService.generatorsOf(ids).values().stream()
                .filter(ForgetsNames.class::isInstance)
                .map(ForgetsNames.class::cast)
                .toList();
        this.sweeper = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "idgen-server-idle-names");
            thread.setDaemon(true);
            return thread;
        });
        long every = Math.max(1, Math.min(idle.toMillis() / 2, TimeUnit.MINUTES.toMillis(1)));
        sweeper.scheduleWithFixedDelay(this::sweep, every, every, TimeUnit.MILLISECONDS);
    }

    /** @return how many names the generators forgot */
    int sweep() {
        try {
            Set<String> released = new HashSet<>(clients.releaseIdleNames());
            if (released.isEmpty()) {
                return 0;
            }
            int forgotten = 0;
            for (ForgetsNames generator : generators) {
                forgotten += generator.forgetNames(released::contains);
            }
            return forgotten;
        } catch (RuntimeException e) {
            // The next sweep tries again; a name kept a little longer costs memory, never an ID.
            LOG.warn("Releasing idle names failed", e);
            return 0;
        }
    }

    @Override
    public void close() {
        sweeper.shutdownNow();
    }
}
