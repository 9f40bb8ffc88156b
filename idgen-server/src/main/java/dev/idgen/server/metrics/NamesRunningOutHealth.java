package dev.idgen.server.metrics;

import java.util.Map;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;

/**
 * Health component {@code idgenNames}: {@value #RUNNING_OUT} while a name served here has less than 1 % of its IDs
 * below the highest ID a block may reach left, else UP. The status shows without details (the server hides them),
 * and answers HTTP 200: the server still serves, but an operator must plan a new name. Details, where shown, list the
 * names and what they have left.
 */
public final class NamesRunningOutHealth implements HealthIndicator {

    /** The status of a name running out. */
    public static final String RUNNING_OUT = "RUNNING_OUT";

    private final ServerMeters meters;

    private final long threshold;

    /**
     * @param meters where each name's remaining IDs are kept
     * @param highestId the highest ID a block may reach; 1 % of it is the threshold
     */
    public NamesRunningOutHealth(ServerMeters meters, long highestId) {
        this.meters = meters;
        this.threshold = highestId / 100;
    }

    @Override
    public Health health() {
        Map<String, Long> low = meters.namesWithLessThan(threshold);
        if (low.isEmpty()) {
            return Health.up().build();
        }
        return Health.status(new Status(RUNNING_OUT, "Names with less than 1 % of their IDs left: plan new names"))
                .withDetail("remaining", low)
                .build();
    }
}
