package dev.idgen.shardingsphere;

import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.lease.LeasingWorkerIdAssigner;
import dev.idgen.jdbc.JdbcSegmentStore;
import dev.idgen.jdbc.JdbcWorkerIdLeaseStore;
import dev.idgen.jdbc.SchemaInitialization;
import dev.idgen.jdbc.SqlIdentifiers;

/**
 * The idgen an {@code IDGEN} key generator builds for itself without Spring, from its props: one value per distinct
 * configuration, so that algorithms ShardingSphere builds more than once with the same props share one idgen (and one
 * worker id lease) in the JVM.
 *
 * @param strategy snowflake (a worker id leased from a table) or segment (blocks from a table)
 * @param url the database's JDBC URL
 * @param username the database user, or null
 * @param password the database password, or null
 * @param table the lease or segment table
 * @param schema when idgen creates the table
 * @param timeoutSeconds the longest one idgen statement may take
 * @param instanceId the lease owner's identity (snowflake)
 * @param segmentStep the first block's size (segment)
 */
record StandaloneSettings(
        Strategy strategy,
        String url,
        String username,
        String password,
        String table,
        SchemaInitialization schema,
        int timeoutSeconds,
        String instanceId,
        int segmentStep) {

    static final String STRATEGY = "strategy";
    static final String JDBC_URL = "jdbc-url";
    static final String JDBC_USERNAME = "jdbc-username";
    static final String JDBC_PASSWORD = "jdbc-password";
    static final String TABLE = "table";
    static final String INITIALIZE_SCHEMA = "initialize-schema";
    static final String TIMEOUT_SECONDS = "timeout-seconds";
    static final String INSTANCE_ID = "instance-id";
    static final String SEGMENT_STEP = "segment-step";

    /** What the standalone idgen issues from. */
    enum Strategy {
        SNOWFLAKE,
        SEGMENT
    }

    /**
     * @return the settings, or null when the props configure no standalone idgen (no {@code jdbc-url})
     * @throws InvalidArgumentException naming the prop at fault
     */
    static StandaloneSettings of(AlgorithmProps props) {
        String url = props.text(JDBC_URL);
        if (url == null) {
            for (String prop : new String[] {
                STRATEGY,
                JDBC_USERNAME,
                JDBC_PASSWORD,
                TABLE,
                INITIALIZE_SCHEMA,
                TIMEOUT_SECONDS,
                INSTANCE_ID,
                SEGMENT_STEP
            }) {
                if (props.text(prop) != null) {
                    throw props.invalid(
                            JDBC_URL,
                            null,
                            "is needed by props." + prop + " (an idgen of the algorithm's own): set it to the JDBC URL"
                                    + " of the database holding idgen's table");
                }
            }
            return null;
        }
        if (!url.startsWith("jdbc:")) {
            throw props.invalid(JDBC_URL, url, "must be a JDBC URL (jdbc:...)");
        }
        Strategy strategy = props.choice(STRATEGY, Strategy.class, Strategy.SNOWFLAKE);
        String table = props.text(TABLE);
        if (table == null) {
            table = strategy == Strategy.SNOWFLAKE
                    ? JdbcWorkerIdLeaseStore.DEFAULT_TABLE
                    : JdbcSegmentStore.DEFAULT_TABLE;
        } else {
            try {
                SqlIdentifiers.checkTable(TABLE, table);
            } catch (InvalidArgumentException e) {
                throw props.invalid(TABLE, table, "is not a table name idgen accepts (" + e.getMessage() + ")");
            }
        }
        String instanceId = props.text(INSTANCE_ID);
        if (instanceId != null && instanceId.length() > LeasingWorkerIdAssigner.MAX_INSTANCE_ID_LENGTH) {
            throw props.invalid(
                    INSTANCE_ID,
                    instanceId,
                    "must be 1 to " + LeasingWorkerIdAssigner.MAX_INSTANCE_ID_LENGTH + " characters");
        }
        return new StandaloneSettings(
                strategy,
                url,
                props.text(JDBC_USERNAME),
                props.raw(JDBC_PASSWORD, null),
                table,
                props.choice(INITIALIZE_SCHEMA, SchemaInitialization.class, SchemaInitialization.EMBEDDED),
                props.integer(TIMEOUT_SECONDS, 3, 1, 60),
                instanceId,
                props.integer(SEGMENT_STEP, 1000, 1, 1_000_000));
    }

    @Override
    public String toString() {
        // Without the password: this names the configuration in messages.
        return "StandaloneSettings[strategy=" + AlgorithmProps.name(strategy) + ", url=" + url + ", table=" + table
                + (instanceId == null ? "" : ", instance-id=" + instanceId) + "]";
    }
}
