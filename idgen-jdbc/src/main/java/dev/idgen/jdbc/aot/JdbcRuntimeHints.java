package dev.idgen.jdbc.aot;

import dev.idgen.jdbc.DatabaseDialect;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;

/**
 * The class path resources idgen-jdbc reads at run time, which a native image holds only when told to: the
 * {@code CREATE TABLE} statements {@link DatabaseDialect#ddl} loads when a store creates its table, and the Flyway
 * migrations and the Liquibase changelog idgen ships for an application's own migrations to include.
 */
public final class JdbcRuntimeHints implements RuntimeHintsRegistrar {

    /** {@link DatabaseDialect#ddlResource}: one file per table kind and database. */
    static final String DDL = "META-INF/idgen/*.sql";

    /** Flyway's {@code classpath:db/idgen/flyway/{vendor}} locations. */
    static final String FLYWAY_MIGRATIONS = "db/idgen/flyway/*/*.sql";

    /** The Liquibase changelog an application includes. */
    static final String LIQUIBASE_CHANGELOG = "db/changelog/idgen/idgen-tables.xml";

    @Override
    public void registerHints(RuntimeHints hints, ClassLoader classLoader) {
        hints.resources().registerPattern(DDL);
        hints.resources().registerPattern(FLYWAY_MIGRATIONS);
        hints.resources().registerPattern(LIQUIBASE_CHANGELOG);
    }
}
