package dev.idgen.jdbc;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * The databases idgen ships DDL for, told apart by the JDBC driver's product name.
 */
public enum DatabaseDialect {

    /** MySQL and MariaDB. */
    MYSQL("mysql"),

    /** PostgreSQL. */
    POSTGRESQL("postgresql"),

    /** H2, for embedded use. */
    H2("h2");

    private final String id;

    DatabaseDialect(String id) {
        this.id = id;
    }

    /**
     * @param productName {@code DatabaseMetaData.getDatabaseProductName()}
     * @return the dialect
     * @throws IllegalStateException for a database idgen has no DDL for
     */
    public static DatabaseDialect of(String productName) {
        String name = productName == null ? "" : productName.toLowerCase(Locale.ROOT);
        if (name.contains("mysql") || name.contains("mariadb")) {
            return MYSQL;
        }
        if (name.contains("postgresql")) {
            return POSTGRESQL;
        }
        if (name.equals("h2")) {
            return H2;
        }
        throw new IllegalStateException("idgen supports MySQL, MariaDB, PostgreSQL and H2, not " + productName);
    }

    /**
     * @param kind which table: {@code segment}, {@code ticket} or {@code worker}
     * @return the class path resource of its DDL for this database, e.g. {@code META-INF/idgen/ticket-mysql.sql},
     *         whose {@code ${table}} stands for the table name
     */
    public String ddlResource(String kind) {
        return "META-INF/idgen/" + kind + "-" + id + ".sql";
    }

    /**
     * @param table a checked table name
     * @param kind which table: {@code segment}, {@code ticket} or {@code worker}
     * @return the {@code CREATE TABLE IF NOT EXISTS} statement for this database
     */
    public String ddl(String kind, String table) {
        String resource = "/" + ddlResource(kind);
        try (InputStream in = DatabaseDialect.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("idgen ships no " + kind + " table DDL for " + this);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8)
                    .replace("${table}", SqlIdentifiers.checkTable("table", table))
                    .trim();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
