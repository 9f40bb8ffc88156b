package dev.idgen.spring.boot.autoconfigure.core;

import dev.idgen.core.IdService;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.springframework.boot.health.contributor.Health;

/**
 * One backend's part of a generator's health. Each backend has one, registered as a bean; a generator's
 * health indicator ({@code IdgenHealthIndicator}, which sits above this package) asks the one of its strategy (and those shared by every strategy), so that adding a
 * backend adds a contributor rather than a branch.
 */
public interface IdgenGeneratorHealth {

    /** The longest a generator's whole health check may take; each contributor's own checks must fit inside it. */
    Duration TIMEOUT = Duration.ofSeconds(2);

    /**
     * @param name the thread's name
     * @return a single-thread executor whose thread is a daemon, for a check that must not hold the JVM open
     */
    static ExecutorService daemonExecutor(String name) {
        return Executors.newSingleThreadExecutor(task -> {
            Thread thread = new Thread(task, name);
            thread.setDaemon(true);
            return thread;
        });
    }

    /**
     * @return the strategy whose generators this reads, for example {@code ticket}, or {@code null} for a backend any
     *         generator may use (Redis)
     */
    String strategy();

    /**
     * Adds details to the generator's health, and marks it DOWN when the generator cannot issue IDs. Runs on the
     * indicator's own thread, within its time bound; it issues no ID.
     *
     * @param generator the generator's name ({@code default} or a named generator's)
     * @param service the generator
     * @param builder its health, UP so far
     */
    void contribute(String generator, IdService service, Health.Builder builder);
}
