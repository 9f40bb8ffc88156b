package dev.idgen.docs;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.shop.OrderService;
import com.example.shop.PurchaseOrder;
import com.example.shop.PurchaseOrderRepository;
import com.example.shop.ShopApplication;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * docs/first-application.md's application, as written: its sources in src/main/java/com/example/shop and its
 * application.yml from examples/{mariadb,postgresql}, booted against a real MariaDB and a real PostgreSQL, each in a
 * database of its own. Only the connection (URL, user, password) is the test's; the rest of the file is used as is.
 */
class FirstApplicationTest {

    @ParameterizedTest
    @EnumSource(TestDatabases.class)
    void savesAPurchaseOrderWithAnIdFromIdgen(TestDatabases server) {
        String folder = server.name().toLowerCase(java.util.Locale.ROOT);
        TestDatabases.Database database = server.fresh("idgen_docs_shop");
        try (ConfigurableApplicationContext shop = new SpringApplicationBuilder(ShopApplication.class)
                .web(WebApplicationType.NONE)
                .run(
                        "--spring.config.location=file:examples/" + folder + "/application.yml",
                        "--spring.datasource.url=" + database.url(),
                        "--spring.datasource.username=" + database.user(),
                        "--spring.datasource.password=" + database.password(),
                        // On this module's test class path only (for MigrationsTest), not in the example's pom.
                        "--spring.flyway.enabled=false",
                        "--spring.liquibase.enabled=false")) {
            OrderService orders = shop.getBean(OrderService.class);

            PurchaseOrder first = orders.place("book");
            PurchaseOrder second = orders.place("pen");

            // Segments in a new database: the "orders" row starts at idgen.jdbc.initial-value 0, so 1, 2, ...
            assertThat(first.getId()).isEqualTo(1L);
            assertThat(second.getId()).isEqualTo(2L);
            assertThat(shop.getBean(PurchaseOrderRepository.class).findById(second.getId()))
                    .hasValueSatisfying(order -> assertThat(order.getItem()).isEqualTo("pen"));
            JdbcTemplate jdbc = shop.getBean(JdbcTemplate.class);
            assertThat(jdbc.queryForObject(
                            "SELECT item FROM purchase_orders WHERE id = ?", String.class, first.getId()))
                    .isEqualTo("book");
            assertThat(jdbc.queryForObject("SELECT max_id FROM idgen_segment WHERE name = 'orders'", Long.class))
                    .as("the block the orders came from")
                    .isGreaterThanOrEqualTo(2L);
            assertThat(orders.nextTrackingNumber()).isEqualTo(1L);
            assertThat(orders.nextTrackingNumber()).isEqualTo(2L);
        }
    }
}
