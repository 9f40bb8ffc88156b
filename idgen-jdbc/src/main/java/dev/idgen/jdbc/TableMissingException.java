package dev.idgen.jdbc;

import dev.idgen.core.StoreUnavailableException;

/**
 * The database answered, but one of idgen's tables is not there: a set-up mistake that no retry will mend, unlike a
 * database that is down. It names the table and the DDL idgen ships for it, so that a start-up check can say how to
 * create it.
 */
public class TableMissingException extends StoreUnavailableException {

    private static final long serialVersionUID = 1L;

    private final String table;

    private final String kind;

    private final String ddlResource;

    TableMissingException(String message, String table, String kind, String ddlResource, Throwable cause) {
        super(message, cause);
        this.table = table;
        this.kind = kind;
        this.ddlResource = ddlResource;
    }

    /**
     * @return the missing table
     */
    public String table() {
        return table;
    }

    /**
     * @return which of idgen's tables it is: {@code segment}, {@code ticket} or {@code worker}
     */
    public String kind() {
        return kind;
    }

    /**
     * @return the class path resource of the DDL for the database, e.g. {@code META-INF/idgen/segment-postgresql.sql},
     *         whose {@code ${table}} stands for the table name (see {@link DatabaseDialect#ddlResource})
     */
    public String ddlResource() {
        return ddlResource;
    }
}
