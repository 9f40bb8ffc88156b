package dev.idgen.jdbc;

import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.StoreUnavailableException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.util.Set;
import java.util.regex.Pattern;
import javax.sql.DataSource;

/**
 * The highest value of a column the application already fills, such as an auto-increment primary key or the IDs
 * another generator wrote: what a name taken over by idgen must start above. Names a table and a column as
 * {@code table.column} or {@code schema.table.column}, checked against a strict pattern, since they go into the SQL as
 * text; the statement has no other input.
 */
public final class ColumnMaximum {

    private static final String IDENTIFIER = "[A-Za-z_][A-Za-z0-9_]{0,63}";

    private static final Pattern TABLE_COLUMN =
            Pattern.compile("(" + IDENTIFIER + "\\.)?" + IDENTIFIER + "\\." + IDENTIFIER);

    private static final Set<Integer> WHOLE_NUMBERS =
            Set.of(Types.BIGINT, Types.INTEGER, Types.SMALLINT, Types.TINYINT, Types.NUMERIC, Types.DECIMAL);

    private final String table;
    private final String column;

    private ColumnMaximum(String table, String column) {
        this.table = table;
        this.column = column;
    }

    /**
     * @param argument the setting's name, for the error
     * @param tableAndColumn {@code table.column} or {@code schema.table.column}
     * @return the column
     * @throws InvalidArgumentException naming {@code argument} when the text breaks the rule
     */
    public static ColumnMaximum parse(String argument, String tableAndColumn) {
        if (tableAndColumn == null || !TABLE_COLUMN.matcher(tableAndColumn).matches()) {
            throw new InvalidArgumentException(
                    argument,
                    tableAndColumn,
                    argument + " must be table.column or schema.table.column, each part letters, digits and"
                            + " underscores, but was '" + tableAndColumn + "'");
        }
        int dot = tableAndColumn.lastIndexOf('.');
        String table = SqlIdentifiers.checkTable(argument, tableAndColumn.substring(0, dot));
        return new ColumnMaximum(table, tableAndColumn.substring(dot + 1));
    }

    /**
     * Reads {@code MAX(column)}.
     *
     * @param dataSource the database holding the table
     * @param timeout the longest the statement may run, rounded up to whole seconds
     * @return the highest value, or 0 when the table is empty or holds only values below 1
     * @throws StoreUnavailableException when the database cannot answer, or the table or column is missing
     * @throws InvalidArgumentException naming {@code column} when the column does not hold whole numbers
     */
    public long read(DataSource dataSource, Duration timeout) {
        String sql = "SELECT MAX(" + column + ") FROM " + table;
        try (Connection connection = dataSource.getConnection();
                PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setQueryTimeout((int) Math.max(1, (timeout.toMillis() + 999) / 1000));
            try (ResultSet result = statement.executeQuery()) {
                int type = result.getMetaData().getColumnType(1);
                if (!WHOLE_NUMBERS.contains(type)
                        || (type == Types.NUMERIC || type == Types.DECIMAL)
                                && result.getMetaData().getScale(1) > 0) {
                    // MAX of a text column is the highest in text order ("999" above "1000"): not a floor.
                    throw new InvalidArgumentException(
                            "column",
                            toString(),
                            this + " must be a column of whole numbers (BIGINT, INTEGER, NUMERIC without"
                                    + " decimals), but its type is "
                                    + result.getMetaData().getColumnTypeName(1));
                }
                result.next();
                long max = result.getLong(1);
                return result.wasNull() ? 0 : Math.max(0, max);
            }
        } catch (SQLException e) {
            throw new StoreUnavailableException("The highest " + this + " could not be read: " + e.getMessage(), e);
        }
    }

    @Override
    public String toString() {
        return table + "." + column;
    }
}
