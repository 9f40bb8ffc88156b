package dev.idgen.jdbc;

/**
 * The text of a {@link RowCounter}'s statements on one database: the update that adds to the counter column of the
 * row with a given name ({@code GREATEST(column, ?) + ?}, the name, the guard if any), restricted to the rows of one
 * writer and stamping this server where it takes over a row, and on MySQL and MariaDB the {@code SELECT} that reads
 * the new value back. Kept apart from {@link RowCounter}, which sends them and decides whether the update's reply can
 * be trusted, because the text depends only on the dialect and validated names: it can be read and checked per
 * dialect without a database.
 *
 * @param update the statement that advances the row (and, except on MySQL, returns its new value); its parameters
 *        are the floor, the delta, the name and, with a guard, the guard's value
 * @param readBack MySQL's {@code SELECT LAST_INSERT_ID()}, otherwise {@code null}
 */
record RowCounterSql(String update, String readBack) {

    /**
     * Which rows a counter advances, by the server that wrote them last ({@link WriterColumn}).
     */
    enum Rows {
        /** Any row: the table has no {@code writer} column. */
        ANY,
        /** Rows this server wrote: the hot path. */
        WRITTEN_HERE,
        /** Rows another server wrote (this one is a promoted copy); the update stamps this server on them. */
        WRITTEN_ELSEWHERE,
        /** Rows written before the column existed; the update stamps this server on them. */
        UNSTAMPED
    }

    /**
     * The statements of a counter whose update sets {@code column = GREATEST(column, floor) + delta}: a caller that
     * already holds values up to {@code floor} (from before a failover) never gets them again.
     *
     * @param table a checked table name
     * @param key the column holding the row's name ({@code name} in idgen's tables)
     * @param column the counter column
     * @param guard a column the row must also match, or {@code null}
     * @param rows which rows it advances, by their writer
     */
    static RowCounterSql of(DatabaseDialect dialect, String table, String key, String column, String guard, Rows rows) {
        String identity = WriterColumn.identity(dialect);
        String where = " WHERE " + key + " = ?" + (guard == null ? "" : " AND " + guard + " = ?")
                + switch (rows) {
                    case ANY -> "";
                    case WRITTEN_HERE -> " AND " + WriterColumn.NAME + " = " + identity;
                    case WRITTEN_ELSEWHERE -> " AND " + WriterColumn.NAME + " <> " + identity;
                    case UNSTAMPED -> " AND " + WriterColumn.NAME + " IS NULL";
                };
        String stamp = rows == Rows.WRITTEN_ELSEWHERE || rows == Rows.UNSTAMPED
                ? ", " + WriterColumn.NAME + " = " + identity
                : "";
        String next = "GREATEST(" + column + ", ?) + ?";
        return switch (dialect) {
            case MYSQL ->
                new RowCounterSql(
                        "UPDATE " + table + " SET " + column + " = LAST_INSERT_ID(" + next + ")" + stamp + where,
                        "SELECT LAST_INSERT_ID()");
            case POSTGRESQL ->
                new RowCounterSql(
                        "UPDATE " + table + " SET " + column + " = " + next + stamp + where + " RETURNING " + column,
                        null);
            case H2 ->
                new RowCounterSql(
                        "SELECT " + column + " FROM FINAL TABLE (UPDATE " + table + " SET " + column + " = " + next
                                + stamp + where + ")",
                        null);
        };
    }
}
