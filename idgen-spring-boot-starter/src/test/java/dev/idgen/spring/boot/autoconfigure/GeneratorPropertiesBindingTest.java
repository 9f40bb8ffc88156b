package dev.idgen.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.spring.boot.autoconfigure.core.CountingPeriod;
import dev.idgen.spring.boot.autoconfigure.core.Form;
import dev.idgen.spring.boot.autoconfigure.core.IdgenGenerators;
import dev.idgen.spring.boot.autoconfigure.core.IdgenProperties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.NestedExceptionUtils;

/**
 * strategy, form and period are enums: the values written before (any case, {@code uuid-v7}, {@code object-id}) bind
 * to the same settings, at the top level and under a generator, and a value that is not one of them (an empty one
 * included) still fails naming the generator's property and the values it accepts.
 */
class GeneratorPropertiesBindingTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(IdgenAutoConfiguration.class))
            .withPropertyValues("idgen.snowflake.worker-id=0");

    @Test
    void theValuesWrittenBeforeBindToTheSameSettings() {
        runner.withPropertyValues(
                        "idgen.strategy=Snowflake",
                        "idgen.form=Base62",
                        "idgen.generators.b.strategy=SNOWFLAKE",
                        "idgen.generators.b.snowflake.worker-id=1",
                        "idgen.generators.b.form=crockford32",
                        "idgen.generators.u.form=uuid-v7",
                        "idgen.generators.o.form=object-id",
                        "idgen.generators.[order.v2].form=UUID-V7")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    IdgenGenerators generators = IdgenGenerators.of(null, context.getEnvironment());
                    assertThat(generators.defaultGenerator().strategy()).isEqualTo(IdgenProperties.Strategy.SNOWFLAKE);
                    assertThat(generators.defaultGenerator().form()).isEqualTo(Form.BASE62);
                    assertThat(generators.defaultGenerator().properties().getPeriod())
                            .isEqualTo(CountingPeriod.NONE);
                    assertThat(generators.named().get("b").form()).isEqualTo(Form.CROCKFORD32);
                    assertThat(generators.standalone().get("u").form()).isEqualTo(Form.UUID_V7);
                    assertThat(generators.standalone().get("o").form()).isEqualTo(Form.OBJECT_ID);
                    assertThat(generators.standalone().get("order.v2").form()).isEqualTo(Form.UUID_V7);
                    assertThat(context.getBean(IdgenProperties.class).getStrategy())
                            .isEqualTo(IdgenProperties.Strategy.SNOWFLAKE);
                });
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "idgen.strategy= | idgen.strategy | must be one of [snowflake, segment, ticket, redis]",
                "idgen.generators.b.strategy=tikcet | idgen.generators.b.strategy | must be one of [snowflake, segment, ticket, redis]",
                "idgen.generators.[order.v2].strategy=x | idgen.generators.order.v2.strategy | must be one of [snowflake, segment, ticket, redis]",
                "idgen.form=hex | idgen.form | must be one of [number, crockford32, base62, public, shard, uuid-v7, guid, object-id, flake128, simpleflake]",
                "idgen.generators.b.form= | idgen.generators.b.form | must be one of [number, crockford32, base62, public, shard, uuid-v7, guid, object-id, flake128, simpleflake]",
                "idgen.period=weekly | idgen.period | must be one of [none, daily, monthly, yearly]",
                "idgen.generators.b.period= | idgen.generators.b.period | must be one of [none, daily, monthly, yearly]",
            })
    void aValueThatIsNotOneOfThemNamesThePropertyAndTheValues(String setting, String property, String reason) {
        runner.withPropertyValues(setting, "idgen.generators.b.snowflake.worker-id=1")
                .run(context -> assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                        .isInstanceOfSatisfying(InvalidConfigurationPropertyValueException.class, e -> {
                            assertThat(e.getName()).isEqualTo(property);
                            assertThat(e.getReason()).isEqualTo(reason);
                        }));
    }
}
