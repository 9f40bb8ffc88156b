package dev.idgen.spring.boot.autoconfigure.segment;

import dev.idgen.core.IdService;
import dev.idgen.core.segment.InterleavedSegmentStore;
import dev.idgen.core.segment.SegmentBufferStats;
import dev.idgen.core.segment.SegmentIdService;
import dev.idgen.spring.boot.autoconfigure.core.IdgenGeneratorHealth;
import dev.idgen.spring.boot.autoconfigure.jdbc.JdbcFailoverDetails;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.springframework.boot.health.contributor.Health;

/**
 * Segment health: each name's buffers, and whether the store answers. Each generator's store check runs on a thread
 * of this contributor's own for that generator, bounded by {@link #STORE_CHECK_TIMEOUT}; {@link #close()} stops them.
 */
public final class SegmentHealth implements IdgenGeneratorHealth, AutoCloseable {

    /** How many names the health lists one by one; the rest are only counted. */
    public static final int LISTED_NAMES = 20;

    /**
     * The longest the segment store's check may take, inside {@link IdgenGeneratorHealth#TIMEOUT}: past it the store
     * counts as not answering, and the rest of the health (how long each name's buffers last) is still reported in
     * time.
     */
    static final Duration STORE_CHECK_TIMEOUT = Duration.ofSeconds(1);

    /**
     * One thread per segment generator: a store that hangs holds its own generator's check, never another
     * generator's.
     */
    private final Map<SegmentIdService, ExecutorService> storeCheckers = new ConcurrentHashMap<>();

    private volatile boolean closed;

    /** Each service's store check running now, if any. */
    private final Map<SegmentIdService, CompletableFuture<Void>> storeChecks = new ConcurrentHashMap<>();

    @Override
    public String strategy() {
        return SegmentIdService.STRATEGY;
    }

    @Override
    public void contribute(String generator, IdService service, Health.Builder builder) {
        if (service instanceof SegmentIdService segments) {
            segmentHealth(builder, segments);
        }
    }

    /** Stops the store check's thread. */
    @Override
    public void close() {
        closed = true;
        storeCheckers.values().forEach(ExecutorService::shutdownNow);
    }

    /**
     * Checks the store on a thread of its own and waits at most {@link #STORE_CHECK_TIMEOUT}. A check still running
     * from an earlier request is joined, not repeated, so a hanging store holds one thread, not one per request.
     *
     * @return the store's failure, or {@code null} when it answered
     */
    private String checkStore(SegmentIdService segments) {
        CompletableFuture<Void> check = storeChecks.get(segments);
        if (check == null || check.isDone()) {
            try {
                if (closed) {
                    throw new RejectedExecutionException("closed");
                }
                ExecutorService checker = storeCheckers.computeIfAbsent(
                        segments, service -> IdgenGeneratorHealth.daemonExecutor("idgen-health-store-check"));
                check = CompletableFuture.runAsync(() -> segments.store().checkAvailable(), checker);
            } catch (RejectedExecutionException e) {
                return "The idgen health indicator is closed";
            }
            storeChecks.put(segments, check);
        }
        try {
            check.get(STORE_CHECK_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            return null;
        } catch (TimeoutException e) {
            return "The segment store did not answer within " + STORE_CHECK_TIMEOUT.toMillis() + " ms";
        } catch (ExecutionException e) {
            return String.valueOf(e.getCause().getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "Interrupted while checking the segment store";
        }
    }

    /**
     * DOWN while any name is refusing its callers. Otherwise UP while the store answers; while it does not, each name
     * reports how long its buffers should last at the observed rate, and the health is DOWN once a name has run out
     * or when no name has any buffer at all (the store was down from the start). Names are listed by urgency (refusing
     * first, then fewest IDs left), at most {@link #LISTED_NAMES} of them; the rest are counted.
     */
    private void segmentHealth(Health.Builder builder, SegmentIdService segments) {
        String storeError = checkStore(segments);
        builder.withDetail("storeAvailable", storeError == null);
        JdbcFailoverDetails.of(segments.store()).forEach(builder::withDetail);
        if (segments.store() instanceof InterleavedSegmentStore servers) {
            // After the check above, which refreshed each server's state.
            builder.withDetail("slotSize", servers.slotSize()).withDetail("servers", SegmentServers.health(servers));
        }
        List<SegmentBufferStats> all = new ArrayList<>(segments.stats());
        all.sort(Comparator.comparing((SegmentBufferStats stats) -> !stats.refusing())
                .thenComparingLong(SegmentBufferStats::remaining)
                .thenComparing(SegmentBufferStats::name));
        Map<String, Object> names = new LinkedHashMap<>();
        List<String> refusing = new ArrayList<>();
        boolean runOut = false;
        for (SegmentBufferStats stats : all) {
            if (stats.refusing()) {
                refusing.add(stats.name());
            }
            if (storeError != null) {
                runOut |= stats.remaining() == 0;
            }
            if (names.size() == LISTED_NAMES) {
                continue;
            }
            Map<String, Object> detail = new LinkedHashMap<>();
            SegmentNameState.putRemaining(detail, stats);
            if (stats.refusing()) {
                detail.put("refusing", true);
            }
            if (storeError != null) {
                stats.estimatedTimeLeft().ifPresent(left -> detail.put("estimatedTimeLeft", left.toString()));
            }
            if (stats.lastFailure() != null) {
                detail.put("lastFailure", stats.lastFailure());
            }
            names.put(stats.name(), detail);
        }
        builder.withDetail("nameCount", all.size())
                .withDetail("maxNames", segments.maxNames())
                .withDetail("names", names);
        if (!refusing.isEmpty()) {
            builder.down()
                    .withDetail("namesRefusing", refusing.size())
                    .withDetail(
                            "error",
                            refusing.size()
                                    + " name(s) cannot serve, callers are refused: "
                                    + String.join(", ", refusing.subList(0, Math.min(LISTED_NAMES, refusing.size())))
                                    + (storeError != null ? " (" + storeError + ")" : ""));
        } else if (storeError != null) {
            builder.withDetail("error", storeError);
            if (runOut || all.isEmpty()) {
                builder.down();
            }
        }
    }
}
