package dev.idgen.jdbc;

import dev.idgen.core.IdArguments;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import javax.sql.DataSource;

/**
 * Didi Tinyid's {@code tiny_id_token} table, read as Tinyid reads it ({@code select id, token, biz_type, remark,
 * create_time, update_time from tiny_id_token}): which biz types each token may use. For an idgen server answering
 * Tinyid's callers with the tokens they already have; the server reads it again every minute, as Tinyid does.
 */
public final class TinyidTokenTable {

    private final JdbcStatements<DatabaseDialect> statements;
    private final String select;

    /**
     * @param dataSource the database holding the table
     * @param table the table, checked by {@link SqlIdentifiers}
     * @param timeout the longest the read may take, rounded up to whole seconds
     */
    public TinyidTokenTable(DataSource dataSource, String table, Duration timeout) {
        String checked = SqlIdentifiers.checkTable("table", table);
        this.statements = new JdbcStatements<>(
                dataSource,
                "Tinyid's token table " + checked,
                "tinyid-token",
                checked,
                SchemaInitialization.NEVER,
                timeout,
                null,
                (connection, dialect) -> dialect);
        this.select = "select id, token, biz_type, remark, create_time, update_time from " + checked;
    }

    /**
     * @return each token's biz types, those that are idgen names only (a row whose biz type no idgen name can be is
     *         left out); tokens and biz types as the table holds them
     * @throws dev.idgen.core.StoreUnavailableException when the table cannot be read
     */
    public Map<String, Set<String>> read() {
        return statements.execute("read the tokens", (connection, dialect) -> {
            Map<String, Set<String>> tokens = new HashMap<>();
            try (PreparedStatement query = statements.prepare(connection, select);
                    ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    String token = rows.getString("token");
                    String bizType = rows.getString("biz_type");
                    if (token != null && !token.isEmpty() && IdArguments.isName(bizType)) {
                        tokens.computeIfAbsent(token, t -> new LinkedHashSet<>())
                                .add(bizType);
                    }
                }
            }
            tokens.replaceAll((token, types) -> Collections.unmodifiableSet(types));
            return Collections.unmodifiableMap(tokens);
        });
    }
}
