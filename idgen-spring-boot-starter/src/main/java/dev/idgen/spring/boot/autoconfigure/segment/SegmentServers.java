package dev.idgen.spring.boot.autoconfigure.segment;

import dev.idgen.core.segment.InterleavedSegmentStore;
import dev.idgen.core.segment.SegmentStore;
import dev.idgen.jdbc.JdbcSegmentStore;
import dev.idgen.spring.boot.autoconfigure.core.IdgenGenerators;
import dev.idgen.spring.boot.autoconfigure.diagnostics.IdgenStartupException;
import dev.idgen.spring.boot.autoconfigure.diagnostics.InvalidIdgenProperty;
import dev.idgen.spring.boot.autoconfigure.jdbc.JdbcFailoverDetails;
import dev.idgen.spring.boot.autoconfigure.jdbc.JdbcProperties;
import dev.idgen.spring.boot.autoconfigure.jdbc.SegmentTables;
import dev.idgen.spring.boot.autoconfigure.jdbc.TableCheck;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.sql.DataSource;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanNotOfRequiredTypeException;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * {@code idgen.segment.servers}: segments spread over independent databases, an {@link InterleavedSegmentStore} over a
 * {@link JdbcSegmentStore} per listed DataSource (same table, same settings), for the default generator and for each
 * named one. Bad configuration fails start-up naming the property; a server that does not answer at start-up does not
 * (it is failed over on use and shown DOWN in health).
 */
final class SegmentServers {

    private SegmentServers() {}

    /**
     * @return whether the generator lists segment servers
     */
    static boolean configured(IdgenGenerators.Definition definition) {
        return !definition.settings(SegmentProperties.SECTION).getServers().isEmpty();
    }

    /**
     * @throws InvalidConfigurationPropertyValueException naming the property that is wrong
     * @throws IdgenStartupException when a server's table is missing and idgen does not create it
     */
    static SegmentStore store(IdgenGenerators.Definition definition, BeanFactory beans) {
        SegmentProperties segment = definition.settings(SegmentProperties.SECTION);
        String prefix = definition.property("segment");
        if (!SegmentProperties.JDBC.equals(segment.getStore())) {
            throw new InvalidConfigurationPropertyValueException(
                    prefix + ".servers",
                    names(segment),
                    "segment servers are databases: they need " + prefix + ".store=jdbc, but it is "
                            + SegmentStrategy.storeSetting(definition));
        }
        JdbcProperties jdbc = definition.settings(JdbcProperties.SECTION);
        if (jdbc.getTableLayout() == JdbcProperties.TableLayout.LEAF) {
            throw new InvalidConfigurationPropertyValueException(
                    prefix + ".servers",
                    names(segment),
                    "Leaf keeps leaf_alloc in one database: leave " + prefix + ".servers empty with "
                            + definition.property("jdbc.table-layout") + "=leaf");
        }
        if (jdbc.getInitialValue() < 0) {
            throw new InvalidConfigurationPropertyValueException(
                    definition.property("jdbc.initial-value"), jdbc.getInitialValue(), "must be at least 0");
        }
        Duration timeout = jdbc.checkedTimeout(definition.property("jdbc"));
        // The layout first: a bad slot size fails before any database is touched.
        InterleavedSegmentStore.Builder builder =
                InterleavedSegmentStore.builder(segment.getSlotSize()).initialValue(jdbc.getInitialValue());
        List<SegmentProperties.Server> servers = segment.getServers();
        Set<String> seen = new HashSet<>();
        JdbcSegmentStore[] stores = new JdbcSegmentStore[servers.size()];
        List<DataSource> dataSources = new ArrayList<>();
        for (int i = 0; i < servers.size(); i++) {
            String property = prefix + ".servers[" + i + "].data-source";
            String name = servers.get(i) == null ? null : servers.get(i).getDataSource();
            if (name == null || name.isBlank()) {
                throw new InvalidConfigurationPropertyValueException(
                        property, name, "must name a DataSource bean" + available(beans));
            }
            if (!seen.add(name)) {
                throw new InvalidConfigurationPropertyValueException(
                        property,
                        name,
                        "is listed twice: each server"
                                + " must be a database of its own, or two servers would count the same rows");
            }
            DataSource dataSource = dataSource(beans, name);
            if (dataSource == null) {
                throw new InvalidConfigurationPropertyValueException(
                        property, name, "no DataSource bean has that name" + available(beans));
            }
            dataSources.add(dataSource);
            if (jdbc.getTableLayout() == JdbcProperties.TableLayout.TINYID) {
                continue;
            }
            stores[i] = InvalidIdgenProperty.rethrowAsProperty(
                    definition.property("jdbc"),
                    () -> new JdbcSegmentStore(
                            dataSource,
                            jdbc.getTable(),
                            0,
                            jdbc.getInitializeSchema(),
                            timeout,
                            JdbcFailoverDetails.jump(definition, jdbc.getFailoverJump())));
            builder.server(name, stores[i]);
        }
        if (jdbc.getTableLayout() == JdbcProperties.TableLayout.TINYID) {
            // Tinyid's databases each keep their residue in the row: not idgen's interleaving.
            return SegmentTables.tinyidStore(definition, dataSources, definition.strategySetting());
        }
        InterleavedSegmentStore store = InvalidIdgenProperty.rethrowAsProperty(prefix, builder::build);
        for (int i = 0; i < stores.length; i++) {
            TableCheck.check(
                    definition,
                    definition.strategySetting() + " (segment server " + i + ", "
                            + servers.get(i).getDataSource() + ")",
                    "jdbc.table",
                    stores[i]::checkAvailable);
        }
        return store;
    }

    private static DataSource dataSource(BeanFactory beans, String name) {
        if (!beans.containsBean(name)) {
            return null;
        }
        try {
            return beans.getBean(name, DataSource.class);
        } catch (BeanNotOfRequiredTypeException e) {
            return null;
        }
    }

    private static String available(BeanFactory beans) {
        if (beans instanceof ListableBeanFactory listable) {
            return "; the DataSource beans are " + Arrays.toString(listable.getBeanNamesForType(DataSource.class));
        }
        return "";
    }

    private static List<String> names(SegmentProperties segment) {
        return segment.getServers().stream()
                .map(server -> server == null ? null : server.getDataSource())
                .toList();
    }

    /**
     * Each server's state for the segment health, in the list's order: UP or DOWN as the latest allocation or check
     * left it (UNKNOWN before either), whether allocations go to it now, and its latest failure.
     */
    static Map<String, Object> health(InterleavedSegmentStore store) {
        Map<String, Object> servers = new LinkedHashMap<>();
        for (InterleavedSegmentStore.ServerState server : store.servers()) {
            Map<String, Object> detail = new LinkedHashMap<>();
            detail.put("status", server.available() == null ? "UNKNOWN" : server.available() ? "UP" : "DOWN");
            detail.put("index", server.index());
            detail.put("current", server.current());
            detail.put("allocations", server.allocations());
            detail.put("failures", server.failures());
            if (Boolean.FALSE.equals(server.available()) && server.lastError() != null) {
                detail.put("error", server.lastError());
            }
            servers.put(server.name(), detail);
        }
        return servers;
    }
}
