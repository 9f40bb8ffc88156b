package com.example.shardingsphere;

import dev.idgen.core.form.IdForms;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import javax.sql.DataSource;

/** Places an order on its customer's shard: the order's ID carries the customer's shard. */
public final class OrderWriter {

    private final IdForms forms;
    private final DataSource shardingSphere;

    public OrderWriter(IdForms forms, DataSource shardingSphere) {
        this.forms = forms;
        this.shardingSphere = shardingSphere;
    }

    public long placeOrder(String customerKey, String item) throws SQLException {
        // idgen.generators.order.form=shard: the ID is taken with the customer's key before the insert, as a key
        // generator sees the table and column but not the row.
        long orderId = Long.parseLong(forms.form("order").next(1, customerKey)[0]);
        try (Connection connection = shardingSphere.getConnection();
                PreparedStatement insert = connection.prepareStatement(
                        "INSERT INTO t_order (order_id, customer_key, item) VALUES (?, ?, ?)")) {
            insert.setLong(1, orderId);
            insert.setString(2, customerKey);
            insert.setString(3, item);
            insert.executeUpdate();
        }
        return orderId;
    }
}
