package dev.idgen.spring.boot.autoconfigure.jdbc;

import dev.idgen.core.segment.SegmentStore;
import dev.idgen.jdbc.JdbcSegmentStore;
import dev.idgen.jdbc.SchemaInitialization;
import dev.idgen.jdbc.SegmentTableLayout;
import dev.idgen.jdbc.TinyidSegmentStore;
import dev.idgen.spring.boot.autoconfigure.core.IdgenGenerators;
import dev.idgen.spring.boot.autoconfigure.diagnostics.InvalidIdgenProperty;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import javax.sql.DataSource;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * The segment table's store by {@code idgen.jdbc.table-layout}: idgen's own table, Leaf's {@code leaf_alloc} or
 * Tinyid's {@code tiny_id_info}, each checked at start-up like idgen's own.
 */
public final class SegmentTables {

    private static final Log log = LogFactory.getLog(SegmentTables.class);

    private SegmentTables() {}

    /**
     * @return the segment table's name: as configured, or the layout's usual name when left at its default
     */
    public static String table(JdbcProperties jdbc) {
        if (!JdbcProperties.DEFAULT_TABLE.equals(jdbc.getTable())) {
            return jdbc.getTable();
        }
        return switch (jdbc.getTableLayout()) {
            case IDGEN -> JdbcProperties.DEFAULT_TABLE;
            case LEAF -> "leaf_alloc";
            case TINYID -> "tiny_id_info";
        };
    }

    /** @return the layout of a table with a row per name: Leaf's, or idgen's own */
    private static SegmentTableLayout rowLayout(JdbcProperties jdbc) {
        return jdbc.getTableLayout() == JdbcProperties.TableLayout.LEAF
                ? SegmentTableLayout.LEAF
                : SegmentTableLayout.IDGEN;
    }

    /** @return the column holding a row's name in the segment table */
    public static String keyColumn(JdbcProperties jdbc) {
        return switch (jdbc.getTableLayout()) {
            case IDGEN -> "name";
            case LEAF -> "biz_tag";
            case TINYID -> "biz_type";
        };
    }

    /**
     * The store on a table of idgen's or Leaf's layout.
     *
     * @param feature what uses the store, for the start-up check's failure
     */
    public static JdbcSegmentStore rowStore(
            IdgenGenerators.Definition definition, DataSource dataSource, String feature) {
        JdbcProperties jdbc = definition.settings(JdbcProperties.SECTION);
        Duration timeout = jdbc.checkedTimeout(definition.property("jdbc"));
        SegmentTableLayout layout = rowLayout(jdbc);
        JdbcSegmentStore store = InvalidIdgenProperty.rethrowAsProperty(
                definition.property("jdbc"),
                () -> new JdbcSegmentStore(
                        dataSource,
                        layout,
                        table(jdbc),
                        jdbc.getInitialValue(),
                        jdbc.getInitializeSchema(),
                        timeout,
                        JdbcFailoverDetails.jump(definition, jdbc.getFailoverJump())));
        TableCheck.check(definition, feature, "jdbc.table", store::checkAvailable);
        JdbcFailoverDetails.logReplication(
                "The segment table " + store.table() + " of generator '" + definition.name() + "'", store.failovers());
        return store;
    }

    /**
     * The store on Tinyid's table over every one of its databases.
     *
     * @param dataSources Tinyid's databases
     * @param feature what uses the store, for the start-up check's failure
     */
    public static TinyidSegmentStore tinyidStore(
            IdgenGenerators.Definition definition, List<DataSource> dataSources, String feature) {
        JdbcProperties jdbc = definition.settings(JdbcProperties.SECTION);
        Duration timeout = jdbc.checkedTimeout(definition.property("jdbc"));
        TinyidSegmentStore store = InvalidIdgenProperty.rethrowAsProperty(
                definition.property("jdbc"),
                () -> new TinyidSegmentStore(
                        dataSources, table(jdbc), jdbc.getInitialValue(), jdbc.getInitializeSchema(), timeout));
        TableCheck.check(definition, feature, "jdbc.table", store::checkAvailable);
        log.warn("Generator '" + definition.name() + "' takes its blocks from Tinyid's table " + store.table() + " on "
                + dataSources.size() + " database(s): Tinyid's rows record no writer, so a failover of one of them to a"
                + " replica that lagged behind is not recognised (and Tinyid's servers would repeat IDs too). Move to"
                + " idgen's own table once the Tinyid servers are gone (docs/switching.md).");
        return store;
    }

    /**
     * The store of the generator's segment table on the application's DataSource, by its layout.
     *
     * @param feature what uses the store, for the start-up check's failure
     */
    public static SegmentStore store(IdgenGenerators.Definition definition, DataSource dataSource, String feature) {
        if (definition.settings(JdbcProperties.SECTION).getTableLayout() == JdbcProperties.TableLayout.TINYID) {
            return tinyidStore(definition, List.of(dataSource), feature);
        }
        return rowStore(definition, dataSource, feature);
    }

    /**
     * The store of the generator's segment table on the application's DataSource, by its layout, without the
     * start-up check and never creating the table: for writing a mark on a table that may not be the generator's.
     */
    public static SegmentStore existingTableStore(IdgenGenerators.Definition definition, DataSource dataSource) {
        JdbcProperties jdbc = definition.settings(JdbcProperties.SECTION);
        Duration timeout = jdbc.checkedTimeout(definition.property("jdbc"));
        return switch (jdbc.getTableLayout()) {
            case TINYID ->
                new TinyidSegmentStore(
                        List.of(dataSource), table(jdbc), jdbc.getInitialValue(), SchemaInitialization.NEVER, timeout);
            case IDGEN, LEAF ->
                new JdbcSegmentStore(
                        dataSource,
                        rowLayout(jdbc),
                        table(jdbc),
                        jdbc.getInitialValue(),
                        SchemaInitialization.NEVER,
                        timeout,
                        JdbcSegmentStore.DEFAULT_FAILOVER_JUMP);
        };
    }

    /**
     * Refuses a layout other than idgen's where the segment table serves as something else than a generator's store
     * (the windows of the redis and dual stores).
     *
     * @param use what the table would serve as
     */
    public static void requireOwnLayout(IdgenGenerators.Definition definition, String use) {
        JdbcProperties.TableLayout layout =
                definition.settings(JdbcProperties.SECTION).getTableLayout();
        if (layout != JdbcProperties.TableLayout.IDGEN) {
            throw new InvalidConfigurationPropertyValueException(
                    definition.property("jdbc.table-layout"),
                    layout.name().toLowerCase(Locale.ROOT),
                    "Leaf's and Tinyid's tables serve idgen.segment.store=jdbc only, not " + use
                            + "; leave table-layout at 'idgen' there");
        }
    }
}
