package dev.idgen.spring.boot.autoconfigure;

import dev.idgen.core.IdService;
import org.springframework.context.SmartLifecycle;

/**
 * Closes the {@link IdService} when the application context stops, before the connections it uses close: a worker id
 * lease is then released (free for the next instance at once) instead of staying taken until it expires, and segment
 * prefetches stop while their database can still answer.
 *
 * <p>Spring stops lifecycle beans before it destroys any bean, highest phase first. Lettuce's connection factory is a
 * lifecycle bean in phase 0 and drops its connections when it stops; without this, closing the service at bean
 * destruction came too late for the lease's release. The web server stops taking requests in a higher phase, so
 * requests in flight during a graceful shutdown still get IDs.
 */
final class IdgenShutdown implements SmartLifecycle {

    /** After the web server (phase {@code DEFAULT_PHASE - 2048}), before Lettuce's connection factory (phase 0). */
    static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 4096;

    private final IdService ids;
    private volatile boolean running;

    IdgenShutdown(IdService ids) {
        this.ids = ids;
    }

    @Override
    public void start() {
        running = true;
    }

    /**
     * Closes the service for good: a context started again after a stop fails to hand out IDs rather than reuse a
     * released worker id.
     */
    @Override
    public void stop() {
        running = false;
        if (ids instanceof AutoCloseable closeable) {
            try {
                closeable.close();
            } catch (Exception e) {
                System.getLogger(IdgenShutdown.class.getName()).log(System.Logger.Level.WARNING,
                        "Closing the ID service failed", e);
            }
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }
}
