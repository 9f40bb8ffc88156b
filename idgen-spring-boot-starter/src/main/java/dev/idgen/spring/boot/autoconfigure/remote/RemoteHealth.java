package dev.idgen.spring.boot.autoconfigure.remote;

import dev.idgen.client.RemoteSegmentStore;
import dev.idgen.client.RemoteServer;
import dev.idgen.core.IdService;
import dev.idgen.core.StoreUnavailableException;
import dev.idgen.spring.boot.autoconfigure.core.IdgenGeneratorHealth;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.boot.health.contributor.Health;

/**
 * The idgen servers' part of the {@code idgen} health, for each generator with {@code segment.store=remote}: every
 * server with its breaker's state and counts; DOWN when no server answers an authenticated list request within
 * {@link #CHECK_TIMEOUT} (allocations would then fail too). Kept apart so that the health indicator loads no idgen-client class when
 * remote is not used.
 */
public final class RemoteHealth implements IdgenGeneratorHealth {

    /**
     * How long the check may take at most: the segment contributor already checks the same store for up to 1 s, and
     * both must fit in the indicator's own bound (IdgenGeneratorHealth.TIMEOUT, 2 s).
     */
    static final Duration CHECK_TIMEOUT = Duration.ofMillis(500);

    private final RemoteSegmentStore store;

    private final Set<String> generators;

    /**
     * @param store the shared store
     * @param generators the generators that use it
     */
    public RemoteHealth(RemoteSegmentStore store, Set<String> generators) {
        this.store = store;
        this.generators = Set.copyOf(generators);
    }

    /** Every generator that uses remote, whatever else it does. */
    @Override
    public String strategy() {
        return null;
    }

    @Override
    public void contribute(String generator, IdService service, Health.Builder builder) {
        if (!generators.contains(generator)) {
            return;
        }
        List<Map<String, Object>> servers = new ArrayList<>();
        for (RemoteServer server : store.servers()) {
            Map<String, Object> detail = new LinkedHashMap<>();
            detail.put("url", server.uri().toString());
            detail.put("breaker", server.state().name());
            detail.put("rateLimited", server.rateLimited());
            detail.put("successes", server.successes());
            detail.put("failures", server.failures());
            if (server.lastFailure() != null) {
                detail.put("lastFailure", server.lastFailure());
            }
            servers.add(detail);
        }
        builder.withDetail("remote", Map.of("servers", servers));
        try {
            store.checkAvailable(CHECK_TIMEOUT);
        } catch (StoreUnavailableException e) {
            builder.down().withDetail("error", e.getMessage());
        }
    }
}
