package dev.idgen.jdbc;

import java.util.Locale;

/**
 * When idgen creates its table.
 */
public enum SchemaInitialization {

    /** Only on an embedded database (H2 in memory or in a file). */
    EMBEDDED,

    /** On every database, with {@code CREATE TABLE IF NOT EXISTS}. */
    ALWAYS,

    /** Never: the table is created by your migrations, from the DDL idgen ships. */
    NEVER;

    /**
     * @param dialect the database
     * @param url its JDBC URL
     * @return whether idgen creates its table there: H2 over TCP or SSL is a server, not embedded
     */
    boolean createsTableOn(DatabaseDialect dialect, String url) {
        return switch (this) {
            case ALWAYS -> true;
            case NEVER -> false;
            case EMBEDDED ->
                dialect == DatabaseDialect.H2
                        && url != null
                        && !url.toLowerCase(Locale.ROOT).startsWith("jdbc:h2:tcp:")
                        && !url.toLowerCase(Locale.ROOT).startsWith("jdbc:h2:ssl:");
        };
    }
}
