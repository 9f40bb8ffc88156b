package dev.idgen.spring.boot.autoconfigure;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * What no single generator can see: two generators whose tables would collide. Generators may share a table of one
 * kind (each writes only the rows of its own names), but one table cannot hold two kinds of row: a segment table
 * read as a ticket table, or as the worker id lease table, would hand a row's IDs out twice.
 */
final class IdgenGeneratorChecks {

    private IdgenGeneratorChecks() {
    }

    /**
     * @throws InvalidConfigurationPropertyValueException naming the second generator's property and the first's
     */
    static void check(IdgenGenerators generators) {
        Map<String, Use> tables = new HashMap<>();
        for (IdgenGenerators.Definition definition : generators.all()) {
            IdgenJdbcProperties jdbc = definition.properties().getJdbc();
            switch (definition.strategy()) {
                case SEGMENT, REDIS -> claim(tables, jdbc.getTable(), "segment", definition.property("jdbc.table"));
                case TICKET -> claim(tables, definition.ticket().getTable(), "ticket",
                        definition.property("ticket.table"));
                case SNOWFLAKE -> {
                    if (definition.properties().getSnowflake().getWorkerIdAssigner()
                            == IdgenSnowflakeProperties.WorkerIdAssignerType.JDBC) {
                        claim(tables, jdbc.getWorkerTable(), "worker id lease",
                                definition.property("jdbc.worker-table"));
                    }
                }
            }
        }
    }

    private static void claim(Map<String, Use> tables, String table, String kind, String property) {
        if (table == null) {
            return;
        }
        Use first = tables.putIfAbsent(table.toLowerCase(Locale.ROOT), new Use(kind, property));
        if (first != null && !first.kind().equals(kind)) {
            throw new InvalidConfigurationPropertyValueException(property, table, "it is also the " + first.kind()
                    + " table (" + first.property() + "): one table cannot hold " + kind + " rows and " + first.kind()
                    + " rows; give this generator a table of its own");
        }
    }

    private record Use(String kind, String property) {
    }
}
