package dev.idgen.spring.boot.autoconfigure.jdbc;

import dev.idgen.jdbc.SchemaInitialization;
import dev.idgen.spring.boot.autoconfigure.core.IdgenSettings;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * The segment table, reached in plain JDBC on the application's DataSource.
 */
@ConfigurationProperties("idgen.jdbc")
public class JdbcProperties {

    /**
     * The section as every generator has it: {@code idgen.jdbc.*}, and each named generator's own {@code idgen.generators.<name>.jdbc.*} over it.
     */
    public static final IdgenSettings<JdbcProperties> SECTION = IdgenSettings.of("jdbc", JdbcProperties::new);

    /** {@code table}'s default with idgen's own layout. */
    public static final String DEFAULT_TABLE = "idgen_segment";

    /**
     * The segment table: letters, digits and underscores, optionally schema-qualified. Left at its default, it is
     * leaf_alloc with table-layout=leaf and tiny_id_info with table-layout=tinyid.
     */
    private String table = DEFAULT_TABLE;

    /**
     * Whose table the segment table is: 'idgen' (idgen's own), 'leaf' (Meituan Leaf's leaf_alloc, taken over in place
     * while Leaf servers still run on it) or 'tinyid' (Didi Tinyid's tiny_id_info, on the application's DataSource or
     * on every database listed under idgen.segment.servers, in the same order on every instance, while Tinyid servers
     * still run on them). Leaf's and Tinyid's layouts need idgen.segment.store=jdbc (or switch-from=jdbc); see
     * docs/switching.md.
     */
    private TableLayout tableLayout = TableLayout.IDGEN;

    public TableLayout getTableLayout() {
        return tableLayout;
    }

    public void setTableLayout(TableLayout tableLayout) {
        this.tableLayout = tableLayout;
    }

    /** Whose table the segment table is. */
    public enum TableLayout {

        /** idgen's own table (name, max_id, step, version, update_time, writer). */
        IDGEN,

        /** Meituan Leaf's leaf_alloc (biz_tag, max_id, step, description, update_time). */
        LEAF,

        /** Didi Tinyid's tiny_id_info (biz_type, max_id, step, delta, remainder, version, ...). */
        TINYID
    }

    /**
     * When to create idgen's tables (segments, worker id leases and tickets): 'embedded' (only on an embedded
     * database such as H2), 'always' or 'never'.
     */
    private SchemaInitialization initializeSchema = SchemaInitialization.EMBEDDED;

    /**
     * The max_id a new name starts from; its first ID is one more.
     */
    private long initialValue = 0;

    /**
     * The longest one idgen statement may take in the database (a query timeout, whole seconds), from 1s to 1m.
     */
    private Duration timeout = Duration.ofSeconds(3);

    /**
     * The table of leased worker ids, for idgen.snowflake.worker-id-assigner=jdbc.
     */
    private String workerTable = "idgen_worker";

    /**
     * How far each segment row (and each window the redis strategy and the dual store reserve) jumps when the database
     * turns out to be a promoted replica that may have lost the old primary's last writes. It must exceed the IDs the
     * whole fleet takes during the replica's lag (lag times the fleet's rate, plus one prefetch of blocks per
     * instance). 0 turns the jump off, for databases whose failovers lose nothing (Galera, semi-synchronous
     * replication that never falls back). From 0 to 2^50.
     */
    private long failoverJump = 100_000_000_000L; // JdbcSegmentStore.DEFAULT_FAILOVER_JUMP, for the metadata

    public long getFailoverJump() {
        return failoverJump;
    }

    public void setFailoverJump(long failoverJump) {
        this.failoverJump = failoverJump;
    }

    public String getWorkerTable() {
        return workerTable;
    }

    public void setWorkerTable(String workerTable) {
        this.workerTable = workerTable;
    }

    public String getTable() {
        return table;
    }

    public void setTable(String table) {
        this.table = table;
    }

    public SchemaInitialization getInitializeSchema() {
        return initializeSchema;
    }

    public void setInitializeSchema(SchemaInitialization initializeSchema) {
        this.initializeSchema = initializeSchema;
    }

    public long getInitialValue() {
        return initialValue;
    }

    public void setInitialValue(long initialValue) {
        this.initialValue = initialValue;
    }

    public Duration getTimeout() {
        return timeout;
    }

    public void setTimeout(Duration timeout) {
        this.timeout = timeout;
    }

    /**
     * @return the timeout, checked to be between 1s and 1m
     * @throws InvalidConfigurationPropertyValueException naming
     *         {@code idgen.jdbc.timeout} otherwise
     */
    public Duration checkedTimeout() {
        return checkedTimeout("idgen.jdbc");
    }

    /**
     * @param prefix where these settings live, for example {@code idgen.generators.invoice.jdbc}
     * @return the timeout, checked
     */
    public Duration checkedTimeout(String prefix) {
        if (timeout == null
                || timeout.compareTo(Duration.ofSeconds(1)) < 0
                || timeout.compareTo(Duration.ofMinutes(1)) > 0) {
            throw new InvalidConfigurationPropertyValueException(
                    prefix + ".timeout", timeout, "must be between 1s and 1m");
        }
        return timeout;
    }
}
