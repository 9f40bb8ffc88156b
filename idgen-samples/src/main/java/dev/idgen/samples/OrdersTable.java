package dev.idgen.samples;

import org.hibernate.boot.model.naming.Identifier;
import org.hibernate.boot.model.naming.PhysicalNamingStrategySnakeCaseImpl;
import org.hibernate.engine.jdbc.env.spi.JdbcEnvironment;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * Spring Boot's table naming, except that the orders table ({@code idgen_sample_orders}) takes the name in
 * {@code sample.orders-table}. Profiles whose {@code orders} IDs come from different sequences set different tables, so
 * running them one after the other on one database never puts two orders on one ID: the {@code mariadb-ticket}
 * profile counts tickets from 1 while {@code mariadb-segment} counts segments from 1, and each keeps its own orders.
 * Boot hands a {@code PhysicalNamingStrategy} bean to Hibernate.
 */
@Component
public class OrdersTable extends PhysicalNamingStrategySnakeCaseImpl {

    static final String DEFAULT_TABLE = "idgen_sample_orders";

    private final String table;

    public OrdersTable(@Value("${sample.orders-table:" + DEFAULT_TABLE + "}") String table) {
        if (!table.matches("[a-z][a-z0-9_]{0,63}")) {
            throw new IllegalArgumentException("sample.orders-table must be lower-case letters, digits and underscores,"
                    + " starting with a letter, at most 64: '" + table + "'");
        }
        this.table = table;
    }

    @Override
    public Identifier toPhysicalTableName(Identifier logicalName, JdbcEnvironment jdbcEnvironment) {
        Identifier name = super.toPhysicalTableName(logicalName, jdbcEnvironment);
        return name != null && name.getText().equals(DEFAULT_TABLE) ? Identifier.toIdentifier(table) : name;
    }
}
