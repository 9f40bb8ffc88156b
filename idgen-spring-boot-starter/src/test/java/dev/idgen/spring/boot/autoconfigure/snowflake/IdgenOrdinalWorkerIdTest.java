package dev.idgen.spring.boot.autoconfigure.snowflake;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.core.IdService;
import dev.idgen.core.RoutingIdService;
import dev.idgen.core.snowflake.SnowflakeGenerator;
import dev.idgen.core.snowflake.SnowflakeIdService;
import dev.idgen.core.spi.WorkerIdAssigner;
import dev.idgen.core.spi.WorkerIdLeaseStore;
import dev.idgen.spring.boot.autoconfigure.IdgenAutoConfiguration;
import dev.idgen.spring.boot.autoconfigure.diagnostics.IdgenFailureAnalyzer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.NestedExceptionUtils;

/**
 * {@code idgen.snowflake.worker-id-assigner=ordinal}. The host name and the variables come from properties: Spring's
 * environment, where the process's environment variables live, lets a property stand in for one, so the tests need
 * not change the real environment.
 */
class IdgenOrdinalWorkerIdTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(IdgenAutoConfiguration.class))
            .withPropertyValues("idgen.snowflake.worker-id-assigner=ordinal");

    @ParameterizedTest
    @CsvSource({"orders-0, 0", "orders-7, 7", "order-service-1023, 1023"})
    void theWorkerIdIsTheOrdinalAtTheEndOfTheHostName(String hostName, long workerId) {
        runner.withPropertyValues("HOSTNAME=" + hostName).run(context -> {
            assertThat(context).hasNotFailed().doesNotHaveBean(WorkerIdLeaseStore.class);
            assertThat(context.getBean(SnowflakeGenerator.class).workerId()).isEqualTo(workerId);
            SnowflakeIdService ids = (SnowflakeIdService) context.getBean(IdService.class);
            assertThat(ids.decode(ids.nextId("orders")).workerId()).isEqualTo(workerId);
        });
    }

    @Test
    void thePropertysDefaultIsTheCoresPattern() {
        assertThat(new SnowflakeProperties().getOrdinal().getPattern())
                .isEqualTo(dev.idgen.core.snowflake.OrdinalWorkerId.DEFAULT_PATTERN);
    }

    @Test
    void aPatternAnOffsetAndAVariableChangeWhereTheWorkerIdComesFrom() {
        runner.withPropertyValues(
                        "HOSTNAME=node12.dc1.example.com",
                        "idgen.snowflake.ordinal.pattern=^node(\\d+)\\.",
                        "idgen.snowflake.ordinal.offset=100")
                .run(context -> assertThat(
                                context.getBean(SnowflakeGenerator.class).workerId())
                        .isEqualTo(112));
        runner.withPropertyValues("HOSTNAME=not-a-pod", "POD_INDEX=5", "idgen.snowflake.ordinal.env=POD_INDEX")
                .run(context -> assertThat(
                                context.getBean(SnowflakeGenerator.class).workerId())
                        .isEqualTo(5));
        runner.withPropertyValues("HOSTNAME=web-1", "idgen.snowflake.ordinal.offset=-1")
                .run(context -> assertThat(
                                context.getBean(SnowflakeGenerator.class).workerId())
                        .isZero());
    }

    @Test
    void aHostNameWithoutOrdinalFailsStartUpNamingThePropertyTheNameThePatternAndTheRange() {
        runner.withPropertyValues("HOSTNAME=my-laptop").run(context -> {
            FailureAnalysis analysis = analysis(context.getStartupFailure());
            assertThat(analysis.getDescription())
                    .isEqualTo("idgen.snowflake.worker-id-assigner=ordinal takes the"
                            + " worker id from the host name, but the host name 'my-laptop' does not end in an ordinal that"
                            + " idgen.snowflake.ordinal.pattern '.*-(\\d+)$' finds (its one group must capture a number from"
                            + " 0); the worker id, the ordinal plus idgen.snowflake.ordinal.offset, must be from 0 to 1023,"
                            + " the worker ids of this layout (idgen.snowflake.worker-bits=10)");
            assertThat(analysis.getAction())
                    .contains("StatefulSet pod")
                    .contains("idgen.snowflake.ordinal.pattern")
                    .contains("idgen.snowflake.ordinal.env");
        });
    }

    @Test
    void anOrdinalOutsideTheLayoutFailsStartUpWithTheRange() {
        runner.withPropertyValues("HOSTNAME=web-64", "idgen.snowflake.preset=javascript-safe")
                .run(context -> {
                    FailureAnalysis analysis = analysis(context.getStartupFailure());
                    assertThat(analysis.getDescription())
                            .isEqualTo(
                                    "idgen.snowflake.worker-id-assigner=ordinal read the"
                                            + " ordinal 64 from the host name 'web-64' (idgen.snowflake.ordinal.pattern '.*-(\\d+)$'): worker"
                                            + " id 64 is outside 0 to 63, the worker ids of this layout (idgen.snowflake.worker-bits=6)");
                    assertThat(analysis.getAction())
                            .isEqualTo(
                                    "Run at most 64 instances at once, give the layout more"
                                            + " worker bits (idgen.snowflake.worker-bits), or change idgen.snowflake.ordinal.offset");
                });
        runner.withPropertyValues("HOSTNAME=web-0", "idgen.snowflake.ordinal.offset=-1")
                .run(context -> assertThat(analysis(context.getStartupFailure()).getDescription())
                        .contains("ordinal 0 from the host name 'web-0'")
                        .contains("adds idgen.snowflake.ordinal.offset=-1: worker id -1 is outside 0 to 1023"));
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "'' | but it is not set",
                "seven | but it holds 'seven', not a number from 0",
            })
    void aVariableThatHoldsNoOrdinalFailsStartUpNamingIt(String value, String problem) {
        runner.withPropertyValues("idgen.snowflake.ordinal.env=POD_INDEX", "POD_INDEX=" + value)
                .run(context -> {
                    FailureAnalysis analysis = analysis(context.getStartupFailure());
                    assertThat(analysis.getDescription())
                            .isEqualTo("idgen.snowflake.worker-id-assigner=ordinal reads the"
                                    + " ordinal from the environment variable POD_INDEX (idgen.snowflake.ordinal.env), "
                                    + problem);
                    assertThat(analysis.getAction())
                            .startsWith("Set POD_INDEX to this instance's ordinal")
                            .contains("0 to 1023");
                });
    }

    @Test
    void aPatternWithoutOneGroupNamesTheProperty() {
        runner.withPropertyValues("HOSTNAME=web-1", "idgen.snowflake.ordinal.pattern=.*-\\d+$")
                .run(context -> assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                        .isInstanceOfSatisfying(InvalidConfigurationPropertyValueException.class, e -> {
                            assertThat(e.getName()).isEqualTo("idgen.snowflake.ordinal.pattern");
                            assertThat(e.getValue()).isEqualTo(".*-\\d+$");
                            assertThat(e.getReason())
                                    .isEqualTo("pattern must have exactly one group, the ordinal, but"
                                            + " '.*-\\d+$' has 0 (write other groups as (?:...))");
                        }));
    }

    @Test
    void namedGeneratorsInheritTheAssignerAndNeedOffsetsOfTheirOwn() {
        ApplicationContextRunner named =
                runner.withPropertyValues("HOSTNAME=orders-3", "idgen.generators.invoice.strategy=snowflake");
        named.run(context -> assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                .isInstanceOfSatisfying(InvalidConfigurationPropertyValueException.class, e -> {
                    assertThat(e.getName()).isEqualTo("idgen.generators.invoice.snowflake.ordinal.offset");
                    assertThat(e.getReason())
                            .startsWith("it is also idgen.snowflake.ordinal.offset, with the same"
                                    + " ordinal: two Snowflake generators on one worker id issue the same IDs");
                }));
        named.withPropertyValues("idgen.generators.invoice.snowflake.ordinal.offset=512")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(SnowflakeGenerator.class).workerId())
                            .isEqualTo(3);
                    IdService invoice = RoutingIdService.generatorsOf(context.getBean(IdService.class))
                            .get("invoice");
                    assertThat(invoice)
                            .isInstanceOfSatisfying(
                                    SnowflakeIdService.class,
                                    snowflake -> assertThat(
                                                    snowflake.generator().workerId())
                                            .isEqualTo(515));
                });
        named.withPropertyValues("idgen.generators.invoice.snowflake.ordinal.offset=1021")
                .run(context -> assertThat(analysis(context.getStartupFailure()).getDescription())
                        .isEqualTo(
                                "idgen.generators.invoice.snowflake.worker-id-assigner=ordinal read the ordinal 3 from the host"
                                        + " name 'orders-3' (idgen.generators.invoice.snowflake.ordinal.pattern '.*-(\\d+)$')"
                                        + " and adds idgen.generators.invoice.snowflake.ordinal.offset=1021: worker id 1024 is"
                                        + " outside 0 to 1023, the worker ids of this layout"
                                        + " (idgen.generators.invoice.snowflake.worker-bits=10)"));
    }

    @Test
    void anApplicationsOwnAssignerStillWins() {
        runner.withPropertyValues("HOSTNAME=no-ordinal-here")
                .withBean(WorkerIdAssigner.class, () -> new dev.idgen.core.spi.StaticWorkerIdAssigner(9))
                .run(context -> assertThat(
                                context.getBean(SnowflakeGenerator.class).workerId())
                        .isEqualTo(9));
    }

    private static FailureAnalysis analysis(Throwable failure) {
        assertThat(failure).isNotNull();
        FailureAnalysis analysis = new IdgenFailureAnalyzer().analyze(failure);
        assertThat(analysis).as("an IdgenStartupException in %s", failure).isNotNull();
        return analysis;
    }
}
