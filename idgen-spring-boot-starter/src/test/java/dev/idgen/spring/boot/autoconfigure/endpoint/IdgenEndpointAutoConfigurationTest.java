package dev.idgen.spring.boot.autoconfigure.endpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.core.IdService;
import dev.idgen.core.form.IdForms;
import dev.idgen.spring.boot.autoconfigure.IdgenAutoConfiguration;
import dev.idgen.test.services.TestServices;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * The {@code idgen} Actuator endpoint: there only when Actuator is present and the endpoint is available; what it
 * lists for Snowflake (with a worker id leased from MariaDB), ticket and segment generators in real MariaDB and a
 * UUID form; and what it decodes.
 */
class IdgenEndpointAutoConfigurationTest {

    private static final String SUFFIX =
            UUID.randomUUID().toString().replace("-", "").substring(0, 10);

    private static final String TICKETS = "idgen_ep_tickets_" + SUFFIX;

    private static final String SEGMENTS = "idgen_ep_segments_" + SUFFIX;

    private static final String WORKERS = "idgen_ep_workers_" + SUFFIX;

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(
                    IdgenAutoConfiguration.class,
                    IdgenEndpointAutoConfiguration.class,
                    EndpointAutoConfiguration.class));

    private final ApplicationContextRunner mariadb = runner.withConfiguration(
                    AutoConfigurations.of(DataSourceAutoConfiguration.class))
            .withPropertyValues(dataSource())
            .withPropertyValues(
                    "management.endpoints.web.exposure.include=idgen",
                    "idgen.jdbc.initialize-schema=always",
                    "idgen.jdbc.table=" + SEGMENTS,
                    "idgen.jdbc.worker-table=" + WORKERS);

    @AfterAll
    static void dropTables() throws Exception {
        try (Connection connection = TestServices.mariadb().connect();
                Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS " + TICKETS);
            statement.execute("DROP TABLE IF EXISTS " + SEGMENTS);
            statement.execute("DROP TABLE IF EXISTS " + WORKERS);
        }
    }

    private static String[] dataSource() {
        TestServices.JdbcEndpoint mariadb = TestServices.mariadb();
        return new String[] {
            "spring.datasource.url=" + mariadb.url(),
            "spring.datasource.username=" + mariadb.username(),
            "spring.datasource.password=" + mariadb.password()
        };
    }

    @Test
    void isThereWhenExposed() {
        runner.withPropertyValues("management.endpoints.web.exposure.include=health,idgen")
                .run(context -> assertThat(context).hasSingleBean(IdgenEndpoint.class));
    }

    @Test
    void isNotThereWhenNotExposed() {
        runner.run(context -> assertThat(context).hasSingleBean(IdService.class).doesNotHaveBean(IdgenEndpoint.class));
    }

    @Test
    void isNotThereWhenItsAccessIsNone() {
        runner.withPropertyValues(
                        "management.endpoints.web.exposure.include=idgen",
                        // Upper case: the runner's Environment has no lenient enum conversion (an application's has).
                        "management.endpoint.idgen.access=NONE")
                .run(context -> assertThat(context).doesNotHaveBean(IdgenEndpoint.class));
    }

    @Test
    void isNotThereWithoutActuator() {
        runner.withPropertyValues("management.endpoints.web.exposure.include=idgen")
                .withClassLoader(new FilteredClassLoader(Endpoint.class))
                .run(context ->
                        assertThat(context).hasSingleBean(IdService.class).doesNotHaveBean(IdgenEndpoint.class));
    }

    @Test
    void isNotThereWithoutIdgen() {
        runner.withPropertyValues("management.endpoints.web.exposure.include=idgen", "idgen.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(IdgenEndpoint.class));
    }

    @Test
    @SuppressWarnings("unchecked")
    void listsEveryGeneratorWithItsStateAndIssuesNoId() {
        mariadb.withPropertyValues(
                        "idgen.snowflake.worker-id-assigner=jdbc",
                        "idgen.generators.invoice.strategy=ticket",
                        "idgen.generators.invoice.ticket.table=" + TICKETS,
                        "idgen.generators.coupon.strategy=segment",
                        "idgen.generators.coupon.segment.step=50",
                        "idgen.generators.uuid.form=uuid-v7")
                .run(context -> {
                    IdService ids = context.getBean(IdService.class);
                    ids.nextId("coupon");
                    ids.nextId("invoice");
                    IdgenEndpoint endpoint = context.getBean(IdgenEndpoint.class);
                    Map<String, Map<String, Object>> generators =
                            endpoint.generators().generators();
                    assertThat(generators).containsOnlyKeys("default", "invoice", "coupon", "uuid");

                    Map<String, Object> snowflake = generators.get("default");
                    assertThat(snowflake)
                            .containsEntry("strategy", "snowflake")
                            .containsEntry("form", "number")
                            .containsEntry("store", "jdbc")
                            .containsEntry("closed", false)
                            .containsKeys("workerId", "lastTimestamp");
                    assertThat((Map<String, Object>) snowflake.get("lease"))
                            .containsEntry("valid", true)
                            .containsKeys("owner", "timeLeft", "renewals");
                    assertThat((Map<String, Object>) snowflake.get("layout"))
                            .containsEntry("exhaustsAt", "2094-09-07T15:47:35.552Z")
                            .hasEntrySatisfying(
                                    "remainingLifetimeDays",
                                    days -> assertThat((Long) days).isGreaterThan(365L * 60));

                    assertThat(generators.get("invoice"))
                            .containsEntry("strategy", "ticket")
                            .containsEntry("store", "jdbc")
                            .hasEntrySatisfying(
                                    "breakers",
                                    breakers -> assertThat((Map<String, Object>) breakers)
                                            .isNotEmpty()
                                            .allSatisfy((server, state) ->
                                                    assertThat(state).isEqualTo("closed")));

                    Map<String, Object> coupon = generators.get("coupon");
                    assertThat(coupon).containsEntry("strategy", "segment").containsEntry("store", "jdbc");
                    Map<String, Object> segments = (Map<String, Object>) coupon.get("segments");
                    assertThat(segments).containsEntry("nameCount", 1).containsEntry("namesNotListed", 0);
                    Map<String, Object> buffer =
                            (Map<String, Object>) ((Map<String, Object>) segments.get("names")).get("coupon");
                    assertThat(buffer)
                            .containsEntry("served", 1L)
                            .containsEntry("refusing", false)
                            .containsKeys("remaining", "step", "waits", "loads");
                    assertThat(Instant.parse((String) buffer.get("lastLoad")))
                            .isBetween(
                                    Instant.now().minusSeconds(600),
                                    Instant.now().plusSeconds(60));

                    assertThat(generators.get("uuid"))
                            .containsEntry("form", "uuid-v7")
                            .doesNotContainKeys("strategy", "store");

                    // Listing issued nothing: the next coupon is the one after the first.
                    assertThat(ids.nextId("coupon")).isEqualTo(2);
                });
    }

    @Test
    @SuppressWarnings("unchecked")
    void listsAtMostTwentySegmentNamesMostUrgentFirstAndCountsTheRest() {
        mariadb.withPropertyValues("idgen.strategy=segment", "idgen.segment.step=100")
                .run(context -> {
                    IdService ids = context.getBean(IdService.class);
                    for (int i = 0; i < 25; i++) {
                        ids.nextIds("name-" + i, 1 + i);
                    }
                    Map<String, Object> segments = (Map<String, Object>) context.getBean(IdgenEndpoint.class)
                            .generator("default")
                            .get("segments");
                    // The endpoint started no sequence of its own (no buffer for a name 'default').
                    assertThat(segments).containsEntry("nameCount", 25).containsEntry("namesNotListed", 5);
                    Map<String, Map<String, Object>> names = (Map<String, Map<String, Object>>) segments.get("names");
                    assertThat(names).hasSize(IdgenEndpoint.LISTED_NAMES);
                    // Fewest IDs left first (a name's next segment may have loaded ahead, so which names is not fixed).
                    assertThat(names.values().stream()
                                    .map(buffer -> (Long) buffer.get("remaining"))
                                    .toList())
                            .isSorted();
                });
    }

    @Test
    @SuppressWarnings("unchecked")
    void showsTheRedisStrategysCountersAndTheReadableIdBreakers() {
        String prefix = "ep" + SUFFIX + ":";
        mariadb.withConfiguration(AutoConfigurations.of(
                        org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration.class))
                .withPropertyValues(
                        "spring.data.redis.host=" + TestServices.redis().host(),
                        "spring.data.redis.port=" + TestServices.redis().port(),
                        "idgen.redis.prefix=" + prefix,
                        "idgen.strategy=redis",
                        "idgen.redis.window-size=1000",
                        "idgen.redis.buckets.enabled=true",
                        "idgen.redis.buckets.count=8")
                .run(context -> {
                    context.getBean(IdService.class).nextId("orders");
                    Map<String, Object> redis =
                            context.getBean(IdgenEndpoint.class).generator("default");
                    assertThat(redis)
                            .containsEntry("strategy", "redis")
                            .containsEntry("store", "redis")
                            .containsEntry(
                                    "redis",
                                    "Redis at " + TestServices.redis().host() + ":"
                                            + TestServices.redis().port())
                            .containsEntry("countersLost", 0L)
                            .as("one ID from a fresh prefix takes one window")
                            .containsEntry("windowsReserved", 1L);
                    assertThat((Map<String, Object>) redis.get("readableIdBreakers"))
                            .containsEntry("buckets", 8)
                            .containsEntry("open", 0);
                });
    }

    @Test
    void decodesAnIdWithTheGeneratorsFormAndRefusesWhatItCannotRead() {
        mariadb.withPropertyValues(
                        "idgen.generators.uuid.form=uuid-v7",
                        "idgen.generators.b32.form=crockford32",
                        "idgen.generators.b32.prefix=ord_",
                        "idgen.generators.b32.snowflake.worker-id=1")
                .run(context -> {
                    IdService ids = context.getBean(IdService.class);
                    IdForms forms = context.getBean(IdForms.class);
                    IdgenEndpoint endpoint = context.getBean(IdgenEndpoint.class);
                    long id = ids.nextId("orders");
                    Map<String, Object> decoded = endpoint.decode("default", "decode", Long.toString(id));
                    assertThat(decoded)
                            .containsEntry("generator", "default")
                            .containsEntry("form", "number")
                            .containsEntry("strategy", "snowflake")
                            .containsEntry("id", Long.toString(id))
                            .hasEntrySatisfying(
                                    "timestamp",
                                    time -> assertThat(Instant.parse((String) time))
                                            .isBetween(
                                                    Instant.now().minusSeconds(600),
                                                    Instant.now().plusSeconds(60)));
                    assertThat(endpoint.decode(
                                    "uuid", "decode", forms.form("uuid").next()))
                            .containsEntry("generator", "uuid")
                            .containsEntry("form", "uuid-v7")
                            .containsKey("timestamp");
                    String b32 = forms.form("b32").next();
                    assertThat(endpoint.decode("b32", "decode", b32))
                            .containsEntry("form", "crockford32")
                            .hasEntrySatisfying("id", value -> assertThat(value).isInstanceOf(String.class));

                    assertThatThrownBy(() -> endpoint.decode("nope", "decode", "1"))
                            .isInstanceOf(InvalidEndpointRequestException.class)
                            .hasMessage("Unknown generator 'nope': the generators are [default, b32, uuid]");
                    assertThatThrownBy(() -> endpoint.decode("default", "decode", "abc"))
                            .isInstanceOf(InvalidEndpointRequestException.class)
                            .hasMessageContaining("id")
                            .hasMessageContaining("abc");
                    assertThatThrownBy(() -> endpoint.decode("b32", "decode", "inv_" + b32.substring(4)))
                            .isInstanceOf(InvalidEndpointRequestException.class);
                    assertThatThrownBy(() -> endpoint.decode("default", "issue", "1"))
                            .isInstanceOf(InvalidEndpointRequestException.class)
                            .hasMessageContaining("Unknown operation 'issue'");
                    assertThatThrownBy(() -> endpoint.generator("nope"))
                            .isInstanceOf(InvalidEndpointRequestException.class)
                            .hasMessageContaining("Unknown generator 'nope'");
                });
    }
}
