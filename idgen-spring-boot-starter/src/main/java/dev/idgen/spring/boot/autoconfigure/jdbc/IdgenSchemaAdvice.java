package dev.idgen.spring.boot.autoconfigure.jdbc;

import dev.idgen.jdbc.TableMissingException;
import dev.idgen.spring.boot.autoconfigure.core.IdgenGenerators;

/**
 * What a missing-table failure report suggests: creating the table from idgen's DDL or idgen's migrations, or setting
 * the property that lets idgen create it. The key that creates every idgen table at once is the top-level
 * {@code idgen.jdbc.initialize-schema=always}, which the generators of their own inherit: a report that suggested only
 * the failing generator's key ({@code idgen.generators.invoice.jdbc.initialize-schema}) had the user fix one table and
 * fail again on the next generator's.
 */
public final class IdgenSchemaAdvice {

    public static final String EVERY_TABLE = IdgenGenerators.PREFIX + ".jdbc.initialize-schema";

    /** idgen's Flyway migrations, for {@code spring.flyway.locations}: Spring Boot replaces {@code {vendor}}. */
    public static final String FLYWAY_LOCATION = "classpath:db/idgen/flyway/{vendor}";

    /** idgen's Liquibase changelog, to include from the application's own. */
    public static final String LIQUIBASE_CHANGELOG = "db/changelog/idgen/idgen-tables.xml";

    private IdgenSchemaAdvice() {}

    /**
     * How to create the missing table: from the DDL idgen ships for it, and, when it has its default name, with the
     * Flyway and Liquibase migrations idgen ships, which create the default names only. Since the starter orders its
     * tables' users after Spring Boot's Flyway and Liquibase ({@code IdgenDatabaseInitializationDetector}), these run
     * inside the application too.
     *
     * @return for example {@code Create the table with the DDL idgen ships in META-INF/idgen/segment-postgresql.sql
     *         (replace ${table} with idgen_segment), for example from your database migrations, or include idgen's
     *         migrations, which create it (Flyway: add classpath:db/idgen/flyway/{vendor} to spring.flyway.locations;
     *         Liquibase: include db/changelog/idgen/idgen-tables.xml; see docs/migrations.md)}
     */
    public static String createTable(TableMissingException missing) {
        String ddl = "Create the table with the DDL idgen ships in " + missing.ddlResource()
                + " (replace ${table} with " + missing.table() + "), for example from your database migrations";
        // idgen_segment, idgen_ticket, idgen_worker: the names idgen's migrations create (MigrationFilesTest).
        String defaultTable = "idgen_" + missing.kind();
        if (missing.table().equalsIgnoreCase(defaultTable)) {
            return ddl + ", or include idgen's migrations, which create it (Flyway: add " + FLYWAY_LOCATION
                    + " to spring.flyway.locations; Liquibase: include " + LIQUIBASE_CHANGELOG
                    + "; see docs/migrations.md)";
        }
        return ddl + " (the Flyway and Liquibase migrations idgen ships create the default name, " + defaultTable
                + ", only; see docs/migrations.md)";
    }

    /**
     * @return for example {@code set idgen.jdbc.initialize-schema=always to let idgen create its tables at start-up
     *         (every generator inherits it unless it sets jdbc.initialize-schema itself), or
     *         idgen.generators.invoice.jdbc.initialize-schema=always for this generator's table only}
     */
    public static String initializeSchema(IdgenGenerators.Definition definition) {
        String advice = "set " + EVERY_TABLE + "=always to let idgen create its tables at start-up (every generator"
                + " inherits it unless it sets jdbc.initialize-schema itself)";
        if (definition.isDefault()) {
            return advice;
        }
        return advice + ", or " + definition.property("jdbc.initialize-schema") + "=always for this generator's"
                + " table only";
    }
}
