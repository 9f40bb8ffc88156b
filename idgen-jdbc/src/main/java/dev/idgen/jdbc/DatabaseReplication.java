package dev.idgen.jdbc;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import javax.sql.DataSource;

/**
 * What a failover of the database idgen writes to can do to its rows, read from the database itself: whether every
 * commit reaches a replica before it is acknowledged (a failover then loses nothing, and no jump is needed), or not
 * (a failover to a replica that lagged behind loses the last writes, which idgen recognises and jumps past).
 *
 * <p>Read where the database lets idgen's user see it: MariaDB and MySQL's binary log, semi-synchronous replication
 * ({@code rpl_semi_sync_master_*}, its wait point and timeout) and Galera ({@code wsrep_on}); PostgreSQL's
 * {@code synchronous_commit} and synchronous standbys ({@code pg_stat_replication}). What cannot be read is said so.
 *
 * @param topology the replication in words, for the start-up log and health
 * @param lossless whether a failover to a replica loses no acknowledged write (a jump is not needed)
 * @param detection whether a failover to a lagging replica can be recognised here, and what it needs if not
 */
public record DatabaseReplication(String topology, boolean lossless, String detection) {

    /**
     * Reads the replication of the database behind {@code dataSource}; a database that cannot be reached or read is
     * reported as unknown rather than failing.
     */
    public static DatabaseReplication of(DataSource dataSource) {
        try (Connection connection = dataSource.getConnection()) {
            return of(connection);
        } catch (SQLException | RuntimeException e) {
            return new DatabaseReplication(
                    "unknown (could not read it: " + e.getMessage() + ")",
                    false,
                    "rows record their writer; a failover to a lagging replica is recognised and jumped");
        }
    }

    static DatabaseReplication of(Connection connection) throws SQLException {
        DatabaseDialect dialect = DatabaseDialect.of(connection.getMetaData().getDatabaseProductName());
        return switch (dialect) {
            case MYSQL -> mysql(connection);
            case POSTGRESQL -> postgresql(connection);
            case H2 -> new DatabaseReplication("H2: no replication", true, "not needed");
        };
    }

    private static DatabaseReplication mysql(Connection connection) throws SQLException {
        Map<String, String> variables = rows(
                connection,
                "SHOW GLOBAL VARIABLES WHERE Variable_name IN ('log_bin',"
                        + " 'binlog_format', 'server_id', 'wsrep_on', 'rpl_semi_sync_master_enabled',"
                        + " 'rpl_semi_sync_master_wait_point', 'rpl_semi_sync_master_timeout')");
        Map<String, String> status = rows(
                connection,
                "SHOW GLOBAL STATUS WHERE Variable_name IN"
                        + " ('Rpl_semi_sync_master_status', 'Rpl_semi_sync_master_clients', 'wsrep_cluster_size')");
        String format = variables.getOrDefault("binlog_format", "?").toUpperCase(Locale.ROOT);
        boolean binlog = on(variables.get("log_bin"));
        String detection = binlog && format.equals("STATEMENT")
                ? "NOT POSSIBLE with binlog_format=STATEMENT: replicas store their own server id in every row, so a"
                        + " promoted replica is not recognised. Set binlog_format=ROW (or MIXED)"
                : "rows record @@server_id (" + variables.getOrDefault("server_id", "?") + "), carried to replicas"
                        + " by the " + (binlog ? format : "ROW") + " binary log; server ids must differ";
        if (on(variables.get("wsrep_on"))) {
            return new DatabaseReplication(
                    "Galera cluster of " + status.getOrDefault("wsrep_cluster_size", "?")
                            + " nodes (virtually synchronous): a node's loss loses no committed write; writes through"
                            + " different nodes count as failovers, so set the failover jump to 0",
                    true,
                    detection);
        }
        if (!binlog) {
            return new DatabaseReplication(
                    "a single server (binary log off): nothing to fail over to; losing it"
                            + " stops this store until it is back",
                    false,
                    detection);
        }
        if (on(variables.get("rpl_semi_sync_master_enabled"))) {
            String point = variables.getOrDefault("rpl_semi_sync_master_wait_point", "?");
            boolean active = on(status.get("Rpl_semi_sync_master_status"));
            boolean afterSync = point.equalsIgnoreCase("AFTER_SYNC");
            return new DatabaseReplication(
                    "semi-synchronous replication (" + point + ", "
                            + status.getOrDefault("Rpl_semi_sync_master_clients", "?") + " acknowledging replica(s), "
                            + (active ? "active" : "NOT active now: asynchronous")
                            + "), falling back to asynchronous after "
                            + variables.getOrDefault("rpl_semi_sync_master_timeout", "?")
                            + " ms without an acknowledgement:"
                            + (afterSync
                                    ? " a failover to an acknowledging replica loses nothing while it is active"
                                    : " AFTER_COMMIT lets a write be seen before a replica has it, so a failover may lose it"),
                    afterSync && active,
                    detection);
        }
        return new DatabaseReplication(
                "asynchronous replication, or a primary without replicas (binary log on):"
                        + " a failover to a replica that lagged behind loses the last writes; idgen recognises it and jumps",
                false,
                detection);
    }

    private static DatabaseReplication postgresql(Connection connection) throws SQLException {
        Map<String, String> settings = rows(
                connection,
                "SELECT name, setting FROM pg_settings WHERE name IN"
                        + " ('synchronous_commit', 'synchronous_standby_names')");
        long standbys = 0;
        long synchronous = 0;
        try (Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery("SELECT COUNT(*), COUNT(*) FILTER (WHERE sync_state IN"
                        + " ('sync', 'quorum')) FROM pg_stat_replication")) {
            if (result.next()) {
                standbys = result.getLong(1);
                synchronous = result.getLong(2);
            }
        }
        String commit = settings.getOrDefault("synchronous_commit", "?");
        String names = settings.getOrDefault("synchronous_standby_names", "");
        String detection = "rows record the system identifier and the timeline (a promotion starts a new one)";
        boolean waits = commit.equals("on") || commit.equals("remote_apply");
        if (!names.isBlank() && waits && synchronous > 0) {
            return new DatabaseReplication(
                    "synchronous replication (synchronous_commit=" + commit + ", "
                            + synchronous + " synchronous standby(s) of " + standbys
                            + "): a failover to a synchronous standby"
                            + " loses no committed write",
                    true,
                    detection);
        }
        if (standbys == 0) {
            return new DatabaseReplication(
                    "a single server (no standby streaming): nothing to fail over to, or a"
                            + " standby this user cannot see",
                    false,
                    detection);
        }
        return new DatabaseReplication(
                "asynchronous streaming replication (" + standbys + " standby(s),"
                        + " synchronous_commit=" + commit
                        + (names.isBlank() ? "" : ", synchronous_standby_names=" + names)
                        + "): a failover to a standby that lagged behind loses the last writes; idgen recognises it and"
                        + " jumps",
                false,
                detection);
    }

    /** Names as the server spells them: variables in lower case, status as {@code Rpl_semi_sync_master_status}. */
    private static Map<String, String> rows(Connection connection, String sql) throws SQLException {
        Map<String, String> rows = new HashMap<>();
        try (Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery(sql)) {
            while (result.next()) {
                rows.put(result.getString(1), result.getString(2));
            }
        }
        return rows;
    }

    private static boolean on(String value) {
        return value != null && (value.equalsIgnoreCase("ON") || value.equals("1"));
    }
}
