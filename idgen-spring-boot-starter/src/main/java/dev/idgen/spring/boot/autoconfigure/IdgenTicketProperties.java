package dev.idgen.spring.boot.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Ticket-server settings ({@code idgen.strategy=ticket}).
 */
@ConfigurationProperties("idgen.ticket")
public class IdgenTicketProperties {

    /**
     * The ticket servers, each a DataSource bean with an offset. Empty means one server on the application's
     * DataSource. With N servers, server k hands out k + N, k + 2N, ...
     */
    private List<Server> servers = new ArrayList<>();

    /**
     * The ticket table on every server: letters, digits and underscores, optionally schema-qualified.
     */
    private String table = "idgen_ticket";

    /**
     * How long a failed server is skipped before one call probes it again.
     */
    private Duration retryAfter = Duration.ofSeconds(5);

    /**
     * Whether to create the table on first use ('CREATE TABLE IF NOT EXISTS').
     */
    private boolean createTable = false;


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

    public boolean isCreateTable() {
        return createTable;
    }

    public void setCreateTable(boolean createTable) {
        this.createTable = createTable;
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
