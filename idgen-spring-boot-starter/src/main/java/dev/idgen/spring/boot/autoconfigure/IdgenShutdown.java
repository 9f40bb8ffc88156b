package dev.idgen.spring.boot.autoconfigure;

import dev.idgen.core.IdService;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationContextAware;
import org.springframework.context.ApplicationListener;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.event.ContextClosedEvent;

/**
 * Closes the {@link IdService} when the application context stops, before the connections it uses close: a worker id
 * lease is then released (free for the next instance at once) instead of staying taken until it expires, and segment
 * prefetches stop while their database can still answer.
 *
 * <p>Spring stops lifecycle beans before it destroys any bean, highest phase first. Lettuce's connection factory is a
 * lifecycle bean in phase 0 and drops its connections when it stops; without this, closing the service at bean
 * destruction came too late for the lease's release. The web server stops taking requests in a higher phase, so
 * requests in flight during a graceful shutdown still get IDs.
 *
 * <p>Only a context that is closing closes the service: a context that is merely stopped, or paused by the test
 * framework's context cache, starts again later and must still hand out IDs. Spring publishes
 * {@link ContextClosedEvent} before it stops the lifecycle beans of a closing context.
 */
final class IdgenShutdown implements SmartLifecycle, ApplicationListener<ContextClosedEvent>, ApplicationContextAware {

    /** After the web server (phase {@code DEFAULT_PHASE - 2048}), before Lettuce's connection factory (phase 0). */
    static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 4096;

    private final IdService ids;
    private volatile boolean running;
    private volatile boolean closing;
    private ApplicationContext context;

    IdgenShutdown(IdService ids) {
        this.ids = ids;
    }

    @Override
    public void setApplicationContext(ApplicationContext context) {
        this.context = context;
    }

    @Override
    public void onApplicationEvent(ContextClosedEvent event) {
        // A child context's events reach its parent too; only this context's closing counts.
        if (event.getApplicationContext() == context) {
            closing = true;
        }
    }

    @Override
    public void start() {
        running = true;
    }

    /**
     * Closes the service for good when the context is closing; a stop without a close leaves it serving.
     */
    @Override
    public void stop() {
        running = false;
        if (closing && ids instanceof AutoCloseable closeable) {
            try {
                closeable.close();
            } catch (Exception e) {
                System.getLogger(IdgenShutdown.class.getName())
                        .log(System.Logger.Level.WARNING, "Closing the ID service failed", e);
            }
        }
    }

    /** Not stopped when the context is paused (as the test framework pauses cached contexts), only when it closes. */
    @Override
    public boolean isPauseable() {
        return false;
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
