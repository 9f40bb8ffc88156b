package dev.idgen.spring.boot.autoconfigure.jdbc;

import dev.idgen.core.period.Period;
import dev.idgen.jdbc.DatabaseReplication;
import dev.idgen.jdbc.JdbcFailovers;
import dev.idgen.jdbc.JdbcSegmentStore;
import dev.idgen.jdbc.JdbcWorkerIdLeaseStore;
import dev.idgen.jdbc.TicketServer;
import dev.idgen.spring.boot.autoconfigure.core.IdgenGenerators;
import dev.idgen.spring.boot.autoconfigure.forms.IdgenFormFactory;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * What health, meters and the start-up log say about a JDBC store's failovers: whether a promoted replica is
 * recognised, how far rows jump, how many rows this instance moved past a promotion, and what the database's
 * replication guarantees.
 */
public final class JdbcFailoverDetails {

    private static final Log LOG = LogFactory.getLog(JdbcFailoverDetails.class);

    private JdbcFailoverDetails() {}

    /**
     * @return the details of a segment store, ticket server or lease store; empty for any other store
     */
    public static Map<String, Object> of(Object store) {
        Map<String, Object> details = new LinkedHashMap<>();
        JdbcFailovers failovers = store instanceof JdbcSegmentStore segments
                ? segments.failovers()
                : store instanceof TicketServer tickets
                        ? tickets.failovers()
                        : store instanceof JdbcWorkerIdLeaseStore leases ? leases.failovers() : null;
        if (failovers == null) {
            return details;
        }
        Boolean detection = failovers.detection();
        if (detection != null) {
            details.put(
                    "failoverDetection",
                    detection ? "on" : "off: no writer column, or the server's identity cannot be read (see the log)");
        }
        if (failovers.jump() >= 0) {
            details.put("failoverJump", failovers.jump());
        }
        details.put("failovers", failovers.count());
        if (failovers.last() != null) {
            details.put("lastFailover", failovers.last());
        }
        DatabaseReplication replication = failovers.replication();
        if (replication != null) {
            details.put("replication", replication.topology());
            details.put("lossless", replication.lossless());
        }
        return details;
    }

    /**
     * The failover jump a generator's rows get: the configured one, except for a generator that counts per period,
     * whose numbers have only {@code period-digits} digits: there at most 1% of a period's numbers, so that a jump
     * (even a few) never uses up the period's numbers.
     *
     * @param configured the configured jump
     */
    public static long jump(IdgenGenerators.Definition definition, long configured) {
        Period period = IdgenFormFactory.period(definition);
        if (period == null) {
            return configured;
        }
        Integer digits = definition.properties().getPeriodDigits();
        long capacity = pow10(digits == null ? period.defaultDigits() : digits);
        return Math.min(configured, Math.max(1, capacity / 100));
    }

    private static long pow10(int digits) {
        long value = 1;
        for (int i = 0; i < digits && value <= Long.MAX_VALUE / 10; i++) {
            value *= 10;
        }
        return value;
    }

    /**
     * Reads the replication of a store's database at start-up and logs it; a database that does not answer yet is
     * skipped (health shows it once read).
     */
    public static void logReplication(String what, JdbcFailovers failovers) {
        try {
            DatabaseReplication replication = failovers.readReplication();
            LOG.info(what + ": " + replication.topology() + "; failover detection: " + replication.detection());
            if (replication.detection().startsWith("NOT POSSIBLE")) {
                LOG.warn(what + ": " + replication.detection());
            }
        } catch (RuntimeException e) {
            LOG.debug("Could not read the replication of " + what + ": " + e.getMessage());
        }
    }
}
