package dev.idgen.spring.boot.jdbc;

/**
 * When idgen creates its table.
 */
public enum SchemaInitialization {

    /** Only on an embedded database (H2 in memory or in a file). */
    EMBEDDED,

    /** On every database, with {@code CREATE TABLE IF NOT EXISTS}. */
    ALWAYS,

    /** Never: the table is created by your migrations, from the DDL idgen ships. */
    NEVER
}
