package dev.idgen.jdbc;

import dev.idgen.core.InvalidArgumentException;
import java.util.regex.Pattern;

/**
 * Table names go into SQL as text, so they are checked against a strict pattern first: letters, digits and
 * underscores, optionally one schema qualifier, at most 64 characters each part.
 */
public final class SqlIdentifiers {

    private static final Pattern TABLE =
            Pattern.compile("([A-Za-z_][A-Za-z0-9_]{0,63}\\.)?[A-Za-z_][A-Za-z0-9_]{0,63}");

    private SqlIdentifiers() {}

    /**
     * @param argument the argument's name, for the error
     * @param table the table name to check
     * @return the table name
     * @throws InvalidArgumentException naming {@code argument} when the name breaks the rule
     */
    public static String checkTable(String argument, String table) {
        if (table == null || !TABLE.matcher(table).matches()) {
            throw new InvalidArgumentException(
                    argument,
                    table,
                    argument + " must be a table name of letters, digits"
                            + " and underscores, optionally schema-qualified (schema.table), but was '" + table + "'");
        }
        return table;
    }
}
