package dev.idgen.spring.boot.autoconfigure.forms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.core.IdService;
import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.ManualTimeSource;
import dev.idgen.core.RoutingIdService;
import dev.idgen.core.TimeSource;
import dev.idgen.core.form.IdForm;
import dev.idgen.core.form.IdForms;
import dev.idgen.spring.boot.autoconfigure.IdgenAutoConfiguration;
import dev.idgen.test.services.TestServices;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Instant;
import java.util.Base64;
import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.NestedExceptionUtils;

/**
 * The ID forms configured per generator: each one's strings and decode through {@link IdForms}, the per-period ticket
 * counter on real MariaDB, and a start-up failure naming the property for each bad setting.
 */
class IdgenFormsTest {

    private static final String SUFFIX =
            UUID.randomUUID().toString().replace("-", "").substring(0, 10);

    private static final String TICKETS = "idgen_forms_tickets_" + SUFFIX;

    private static final String KEY_1 = Base64.getEncoder().encodeToString(new byte[32]);

    private static final String KEY_2 = Base64.getEncoder().encodeToString("0123456789abcdef".getBytes());

    /** 2026-11-23T23:59:59.990Z: a daily counter is ten milliseconds from its next day. */
    private static final Instant BEFORE_MIDNIGHT = Instant.parse("2026-11-23T23:59:59.990Z");

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, IdgenAutoConfiguration.class))
            .withPropertyValues(dataSource())
            .withPropertyValues(
                    "idgen.jdbc.initialize-schema=always",
                    "idgen.snowflake.worker-id=0",
                    "idgen.generators.uuid.form=uuid-v7",
                    "idgen.generators.guid.form=guid",
                    "idgen.generators.oid.form=object-id",
                    "idgen.generators.flake.form=flake128",
                    "idgen.generators.simple.form=simpleflake",
                    "idgen.generators.shard.strategy=snowflake",
                    "idgen.generators.shard.form=shard",
                    "idgen.generators.shard.snowflake.worker-id=1",
                    "idgen.generators.public.strategy=snowflake",
                    "idgen.generators.public.form=public",
                    "idgen.generators.public.snowflake.worker-id=2",
                    "idgen.generators.public.public.keys.1=" + KEY_1,
                    "idgen.generators.b32.strategy=snowflake",
                    "idgen.generators.b32.form=crockford32",
                    "idgen.generators.b32.prefix=ord_",
                    "idgen.generators.b32.snowflake.worker-id=3",
                    "idgen.generators.invoice.strategy=ticket",
                    "idgen.generators.invoice.period=daily",
                    "idgen.generators.invoice.ticket.table=" + TICKETS);

    @AfterAll
    static void dropTables() throws Exception {
        try (Connection connection = TestServices.mariadb().connect();
                Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS " + TICKETS);
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
    void everyFormIssuesItsStringsAndDecodesThem() {
        runner.run(context -> {
            IdForms forms = context.getBean(IdForms.class);
            assertThat(forms.form("uuid").next()).matches("[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab].{3}-.{12}");
            assertThat(forms.form("guid").decode(forms.form("guid").next())).containsKey("timestamp");
            assertThat(forms.form("oid").next()).matches("[0-9a-f]{24}");
            assertThat(forms.form("flake").next()).matches("[0-9a-f]{32}");
            assertThat(forms.form("simple").decode(forms.form("simple").next())).containsKey("timestamp");
            String[] sharded = forms.form("shard").next(3, "user-42");
            Set<Object> shards = new HashSet<>();
            for (String id : sharded) {
                shards.add(forms.form("shard").decode(id).get("shard"));
            }
            assertThat(shards).hasSize(1);
            String hidden = forms.form("public").next();
            assertThat(forms.form("public").decode(hidden).get("id"))
                    .as("a decimal string, as JSON carries IDs")
                    .isInstanceOfSatisfying(
                            String.class, id -> assertThat(Long.parseLong(id)).isPositive());
            assertThat(forms.form("b32").next()).matches("ord_[0-9A-Z]{13}");
            // A name without a generator of its own: the default generator's decimal numbers.
            assertThat(forms.form("orders").form()).isEqualTo("number");
            assertThat(Long.parseLong(forms.form("orders").next())).isPositive();
        });
    }

    @Test
    void eachFormedGeneratorIsInjectedByItsName() {
        runner.withUserConfiguration(NeedsForms.class).run(context -> {
            assertThat(context.getBean(NeedsForms.class).uuid.form()).isEqualTo("uuid-v7");
            assertThat(context.getBean(NeedsForms.class).b32.form()).isEqualTo("crockford32");
        });
    }

    @Test
    void aStandaloneFormRefusesLongIdsRatherThanFallingToTheDefaultGenerator() {
        runner.run(context -> {
            IdService ids = context.getBean(IdService.class);
            assertThat(((RoutingIdService) ids).generators()).containsKeys("uuid", "shard", "invoice");
            assertThatThrownBy(() -> ids.nextId("uuid"))
                    .isInstanceOf(InvalidArgumentException.class)
                    .hasMessageContaining("IdForms.form(\"uuid\")");
            assertThatThrownBy(() -> ids.nextId("shard"))
                    .isInstanceOfSatisfying(
                            InvalidArgumentException.class,
                            e -> assertThat(e.argument()).isEqualTo("shardKey"));
        });
    }

    @Test
    void aDailyCounterRestartsAtOneAfterMidnightOnItsOwnRow() {
        ManualTimeSource clock = new ManualTimeSource(BEFORE_MIDNIGHT);
        runner.withBean(TimeSource.class, () -> clock).run(context -> {
            IdService ids = context.getBean(IdService.class);
            long last = ids.nextIds("invoice", 3)[2];
            assertThat(last).isEqualTo(2026112300000003L);
            clock.advanceMillis(10);
            long next = ids.nextId("invoice");
            assertThat(next).isEqualTo(2026112400000001L).isGreaterThan(last);
            assertThat(ids.decode("invoice", next).toMap()).containsEntry("number", 1L);
            try (Connection connection = TestServices.mariadb().connect();
                    Statement statement = connection.createStatement();
                    var rows = statement.executeQuery(
                            "SELECT name FROM " + TICKETS + " WHERE name NOT LIKE '#%' ORDER BY name")) {
                Set<String> names = new HashSet<>();
                while (rows.next()) {
                    names.add(rows.getString(1));
                }
                assertThat(names).containsExactlyInAnyOrder("invoice:20261123", "invoice:20261124");
            }
        });
    }

    @Test
    void aKeyRolledInStillDecodesTheOlderVersion() {
        String[] older = new String[1];
        runner.run(context ->
                older[0] = context.getBean(IdForms.class).form("public").next());
        runner.withPropertyValues("idgen.generators.public.public.keys.2=" + KEY_2)
                .run(context -> {
                    IdForm form = context.getBean(IdForms.class).form("public");
                    assertThat(form.decode(older[0])).containsEntry("keyVersion", 1);
                    assertThat(form.decode(form.next())).containsEntry("keyVersion", 2);
                });
    }

    @Test
    void badFormSettingsFailAtStartupNamingTheProperty() {
        assertFailure(
                runner.withPropertyValues("idgen.generators.uuid.form=uuid7"),
                "idgen.generators.uuid.form",
                "must be one of [number, crockford32, base62, public, shard, uuid-v7, guid, object-id, flake128,"
                        + " simpleflake]");
        assertFailure(runner.withPropertyValues("idgen.form=uuid-v7"), "idgen.form", "needs a generator of its own");
        assertFailure(
                runner.withPropertyValues("idgen.generators.uuid.strategy=ticket"),
                "idgen.generators.uuid.strategy",
                "remove idgen.generators.uuid.strategy");
        assertFailure(
                runner.withPropertyValues("idgen.generators.shard.shard.logical-shards=1000"),
                "idgen.generators.shard.shard.logical-shards",
                "must be a power of two from 2 to 65536");
        assertFailure(
                runner.withPropertyValues("idgen.generators.b32.prefix=Ord"), "idgen.generators.b32.prefix", "prefix");
        assertFailure(
                runner.withPropertyValues("idgen.generators.uuid.prefix=ord_"),
                "idgen.generators.uuid.prefix",
                "a prefix is for the crockford32 and base62 forms");
        assertFailure(
                runner.withPropertyValues("idgen.generators.shard.strategy=ticket"),
                "idgen.generators.shard.form",
                "needs idgen.generators.shard.strategy=snowflake");
        assertFailure(
                runner.withPropertyValues("idgen.generators.invoice.period=hourly"),
                "idgen.generators.invoice.period",
                "must be one of [none, daily, monthly, yearly]");
        assertFailure(
                runner.withPropertyValues("idgen.generators.invoice.period-digits=11"),
                "idgen.generators.invoice.period-digits",
                "10");
        assertFailure(
                runner.withPropertyValues("idgen.generators.b32.period=daily"),
                "idgen.generators.b32.period",
                "counting strategy");
        assertFailure(
                runner.withPropertyValues("idgen.generators.public.public.keys.1=c2hvcnQ="),
                "idgen.generators.public.public.keys.1",
                "16, 24 or 32");
    }

    private static void assertFailure(ApplicationContextRunner runner, String property, String reason) {
        runner.run(context -> assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                .as(property)
                .isInstanceOfSatisfying(InvalidConfigurationPropertyValueException.class, e -> {
                    assertThat(e.getName()).isEqualTo(property);
                    assertThat(e.getReason()).contains(reason);
                }));
    }

    @Configuration(proxyBeanMethods = false)
    static class NeedsForms {

        final IdForm uuid;

        final IdForm b32;

        NeedsForms(@Qualifier("uuid") IdForm uuid, @Qualifier("b32") IdForm b32) {
            this.uuid = uuid;
            this.b32 = b32;
        }

        @Bean
        String marker() {
            return "forms";
        }
    }
}
