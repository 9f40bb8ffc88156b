package dev.idgen.spring.boot.autoconfigure.ticket;

import dev.idgen.jdbc.SchemaInitialization;
import dev.idgen.spring.boot.autoconfigure.core.IdgenSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.DeprecatedConfigurationProperty;

/**
 * Ticket-server settings ({@code idgen.strategy=ticket}).
 */
@ConfigurationProperties("idgen.ticket")
public class TicketProperties {

    /**
     * The section as every generator has it: {@code idgen.ticket.*}, and each named generator's own {@code idgen.generators.<name>.ticket.*} over it.
     */
    public static final IdgenSettings<TicketProperties> SECTION = IdgenSettings.of("ticket", TicketProperties::new);

    /**
     * Every name's tickets start above this one and never go below it: the highest ID handed out before the ticket
     * table was in use (another counter, an auto-increment column). Unset by default.
     */
    private Long startAbove;

    /**
     * Per name (idgen.ticket.names.<name>.*): start-above, or start-above-max-of a table.column whose highest value
     * the name's tickets start above.
     */
    private Map<String, NameStart> names = new LinkedHashMap<>();

    public Long getStartAbove() {
        return startAbove;
    }

    public void setStartAbove(Long startAbove) {
        this.startAbove = startAbove;
    }

    public Map<String, NameStart> getNames() {
        return names;
    }

    public void setNames(Map<String, NameStart> names) {
        this.names = names;
    }

    /**
     * The ticket servers, each a DataSource bean (idgen.ticket.servers[k].data-source) with an offset
     * (idgen.ticket.servers[k].offset, from 0 to N - 1, unique, defaulting to k). Empty means one server on the
     * application's DataSource. With N servers, server k hands out k + N, k + 2N, ...
     */
    private List<Server> servers = new ArrayList<>();

    /**
     * The ticket table on every server: letters, digits and underscores, optionally schema-qualified.
     */
    private String table = "idgen_ticket";

    /**
     * How long a failed server is skipped before one call probes it again, from 0 to 10m.
     */
    private Duration retryAfter = Duration.ofSeconds(5);

    /**
     * How many tickets each ticket row skips when its database turns out to be a promoted replica that may have lost
     * the old primary's last writes: a gap of that many in the dense numbers, once per failover, rounded up to a
     * multiple of the number of servers. It must exceed the tickets the fleet takes from one server during the
     * replica's lag. 0 turns the jump off, for databases whose failovers lose nothing. From 0 to 2^50.
     */
    private long failoverJump = 1_000_000L; // TicketServer.DEFAULT_FAILOVER_JUMP, written out for the metadata

    public long getFailoverJump() {
        return failoverJump;
    }

    public void setFailoverJump(long failoverJump) {
        this.failoverJump = failoverJump;
    }

    /**
     * Whether to create the table on first use ('CREATE TABLE IF NOT EXISTS'). Deprecated: idgen.jdbc.initialize-schema
     * decides for every idgen table; when this is set, it still decides for the ticket table.
     */
    private Boolean createTable;

    public List<Server> getServers() {
        return servers;
    }

    public void setServers(List<Server> servers) {
        this.servers = servers;
    }

    public String getTable() {
        return table;
    }

    public void setTable(String table) {
        this.table = table;
    }

    public Duration getRetryAfter() {
        return retryAfter;
    }

    public void setRetryAfter(Duration retryAfter) {
        this.retryAfter = retryAfter;
    }

    /**
     * @return the deprecated setting, or {@code null} when it is not set
     * @deprecated use {@code idgen.jdbc.initialize-schema}, which decides for every idgen table
     */
    @Deprecated
    @DeprecatedConfigurationProperty(
            replacement = "idgen.jdbc.initialize-schema",
            reason = "One property decides table creation for every idgen table: 'always' creates the ticket table")
    public Boolean getCreateTable() {
        return createTable;
    }

    /**
     * @param createTable {@code true} for {@code idgen.jdbc.initialize-schema=always}, {@code false} for
     *        {@code never}, for the ticket table only
     * @deprecated use {@code idgen.jdbc.initialize-schema}
     */
    @Deprecated
    public void setCreateTable(Boolean createTable) {
        this.createTable = createTable;
    }

    /**
     * @param jdbc {@code idgen.jdbc.initialize-schema}
     * @return when the ticket table is created: the deprecated {@code idgen.ticket.create-table} when set, otherwise
     *         {@code idgen.jdbc.initialize-schema}
     */
    @SuppressWarnings("deprecation")
    SchemaInitialization schemaInitialization(SchemaInitialization jdbc) {
        Boolean legacy = getCreateTable();
        if (legacy == null) {
            return jdbc;
        }
        return legacy ? SchemaInitialization.ALWAYS : SchemaInitialization.NEVER;
    }

    /**
     * Where one name's tickets start.
     */
    public static class NameStart {

        /**
         * The name's tickets start above this one and never go below it.
         */
        private Long startAbove;

        /**
         * A column the application already fills, as table.column or schema.table.column on the ticket server's
         * database (an auto-increment primary key, another counter): the name's tickets start above its highest
         * value, read on the name's first call in each instance.
         */
        private String startAboveMaxOf;

        public Long getStartAbove() {
            return startAbove;
        }

        public void setStartAbove(Long startAbove) {
            this.startAbove = startAbove;
        }

        public String getStartAboveMaxOf() {
            return startAboveMaxOf;
        }

        public void setStartAboveMaxOf(String startAboveMaxOf) {
            this.startAboveMaxOf = startAboveMaxOf;
        }
    }

    /**
     * One ticket server.
     */
    public static class Server {

        /**
         * The name of the DataSource bean of this server.
         */
        private String dataSource;

        /**
         * This server's offset, from 0 to the number of servers - 1, unique. Defaults to its position in the list.
         */
        private Integer offset;

        public String getDataSource() {
            return dataSource;
        }

        public void setDataSource(String dataSource) {
            this.dataSource = dataSource;
        }

        public Integer getOffset() {
            return offset;
        }

        public void setOffset(Integer offset) {
            this.offset = offset;
        }
    }
}
