package dev.idgen.spring.boot.autoconfigure.etcd;

import dev.idgen.core.IdService;
import dev.idgen.core.StoreUnavailableException;
import dev.idgen.etcd.EtcdClusterStatus;
import dev.idgen.spring.boot.autoconfigure.core.IdgenGeneratorHealth;
import io.etcd.jetcd.Client;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.boot.health.contributor.Health;

/**
 * etcd's part of the {@code idgen} health, for each generator that keeps something in etcd: the cluster's members,
 * which answered, the leader and the term; DOWN while no member answers or none knows a leader (no quorum), when
 * every store call fails within idgen.etcd.timeout. Kept apart so that the health indicator loads no jetcd class when
 * etcd is not used.
 */
public final class EtcdHealth implements IdgenGeneratorHealth {

    /** How long the members' status may take at most. */
    static final Duration STATUS_TIMEOUT = Duration.ofSeconds(1);

    private final Client client;

    private final List<String> endpoints;

    private final Duration timeout;

    private final Set<String> generators;

    /**
     * @param client the client idgen's etcd stores use
     * @param endpoints its endpoints, as configured
     * @param timeout idgen.etcd.timeout: the status takes at most that, and at most a second
     * @param generators the generators that use etcd
     */
    public EtcdHealth(Client client, List<String> endpoints, Duration timeout, Set<String> generators) {
        this.client = client;
        this.endpoints = List.copyOf(endpoints);
        // Within the health indicator's own bound (IdgenGeneratorHealth.TIMEOUT, 2 s), so that a frozen member
        // shows as unreachable instead of the whole check timing out.
        this.timeout = timeout.compareTo(STATUS_TIMEOUT) < 0 ? timeout : STATUS_TIMEOUT;
        this.generators = Set.copyOf(generators);
    }

    /** Every generator that uses etcd, whatever its strategy. */
    @Override
    public String strategy() {
        return null;
    }

    @Override
    public void contribute(String generator, IdService service, Health.Builder builder) {
        if (!generators.contains(generator)) {
            return;
        }
        try {
            EtcdClusterStatus status = EtcdClusterStatus.read(client, endpoints, timeout);
            builder.withDetail("etcd", status.toMap());
            if (!status.hasQuorum()) {
                builder.down()
                        .withDetail(
                                "error",
                                "etcd has no quorum (" + status.reachable() + "/"
                                        + status.members().size() + " members answer): its stores refuse until it has");
            }
        } catch (StoreUnavailableException e) {
            builder.down().withDetail("etcd", Map.of("endpoints", endpoints)).withDetail("error", e.getMessage());
        }
    }
}
