package dev.idgen.spring.boot.autoconfigure.health;

import dev.idgen.core.ForwardingIdService;
import dev.idgen.core.IdService;
import dev.idgen.core.RoutingIdService;
import dev.idgen.spring.boot.autoconfigure.IdgenStrategies;
import dev.idgen.spring.boot.autoconfigure.core.IdgenGeneratorHealth;
import dev.idgen.spring.boot.autoconfigure.core.IdgenProperties;
import dev.idgen.spring.boot.autoconfigure.redis.RedisHealth;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.util.ClassUtils;

/**
 * Health of one generator: its strategy, and what each backend's {@link IdgenGeneratorHealth} adds (the contributor of
 * the generator's strategy, and those of backends every generator may use). Reading it issues no ID.
 *
 * <p>The whole check runs on a thread of this indicator's own and answers within {@link #TIMEOUT} whatever the
 * stores do: past it the health is DOWN, saying so, and the check still running is joined by the next request
 * rather than repeated. {@link #close()} stops that thread.
 */
public final class IdgenHealthIndicator extends AbstractHealthIndicator implements AutoCloseable {

    /** The longest a health request waits for idgen's checks. */
    static final Duration TIMEOUT = IdgenGeneratorHealth.TIMEOUT;

    private final ExecutorService checker = IdgenGeneratorHealth.daemonExecutor("idgen-health-check");

    private final String generator;

    private final IdService idService;

    private final List<IdgenGeneratorHealth> contributors;

    /** Contributors this indicator made itself, and closes. */
    private final List<AutoCloseable> owned;

    /** The check running now, if any; guarded by this. */
    private CompletableFuture<Health> running;

    /**
     * An indicator with contributors of its own for every backend on the classpath, for a generator built by hand.
     *
     * @param idService the generator
     */
    public IdgenHealthIndicator(IdService idService) {
        this(RoutingIdService.DEFAULT_GENERATOR, idService, defaultContributors(), true);
    }

    /**
     * @param generator the generator's name
     * @param idService the generator
     * @param contributors each backend's contributor
     */
    public IdgenHealthIndicator(String generator, IdService idService, List<IdgenGeneratorHealth> contributors) {
        this(generator, idService, contributors, false);
    }

    private IdgenHealthIndicator(
            String generator, IdService idService, List<IdgenGeneratorHealth> contributors, boolean owned) {
        super("idgen health check failed");
        this.generator = generator;
        this.idService = idService;
        this.contributors = List.copyOf(contributors);
        this.owned = owned
                ? contributors.stream()
                        .filter(AutoCloseable.class::isInstance)
                        .map(AutoCloseable.class::cast)
                        .toList()
                : List.of();
    }

    /**
     * @return a contributor for every backend on the classpath; Redis's only when Lettuce is there
     */
    static List<IdgenGeneratorHealth> defaultContributors() {
        List<IdgenGeneratorHealth> contributors = new ArrayList<>();
        for (IdgenProperties.Strategy strategy : IdgenProperties.Strategy.values()) {
            IdgenGeneratorHealth health = IdgenStrategies.of(strategy).health();
            if (health != null) {
                contributors.add(health);
            }
        }
        if (ClassUtils.isPresent("io.lettuce.core.RedisClient", IdgenHealthIndicator.class.getClassLoader())) {
            contributors.add(new RedisHealth(null, null));
        }
        return contributors;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        CompletableFuture<Health> check;
        synchronized (this) {
            check = running;
            if (check == null || check.isDone()) {
                try {
                    check = CompletableFuture.supplyAsync(this::check, checker);
                } catch (RejectedExecutionException e) {
                    builder.down()
                            .withDetail("strategy", idService.strategy())
                            .withDetail("error", "The idgen health indicator is closed");
                    return;
                }
                running = check;
            }
        }
        try {
            Health health = check.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            builder.status(health.getStatus()).withDetails(health.getDetails());
        } catch (TimeoutException e) {
            builder.down()
                    .withDetail("strategy", idService.strategy())
                    .withDetail(
                            "error",
                            "The idgen health check" + " did not finish within " + TIMEOUT.toMillis()
                                    + " ms: a store it checks does not answer");
        } catch (ExecutionException e) {
            builder.down(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            builder.down().withDetail("error", "Interrupted while checking idgen's health");
        }
    }

    /** Stops the threads the checks run on. */
    @Override
    public void close() {
        checker.shutdownNow();
        for (AutoCloseable contributor : owned) {
            try {
                contributor.close();
            } catch (Exception e) {
                // Stopping threads: nothing to report.
            }
        }
    }

    private Health check() {
        Health.Builder builder = Health.up().withDetail("strategy", idService.strategy());
        // A period or shard wrapper adds nothing to watch: its backend's health is the generator's.
        IdService backend = ForwardingIdService.innermost(idService);
        for (IdgenGeneratorHealth contributor : contributors) {
            if (contributor.strategy() == null || contributor.strategy().equals(backend.strategy())) {
                contributor.contribute(generator, backend, builder);
            }
        }
        return builder.build();
    }
}
