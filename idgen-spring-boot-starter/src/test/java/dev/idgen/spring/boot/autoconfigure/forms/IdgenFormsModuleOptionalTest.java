package dev.idgen.spring.boot.autoconfigure.forms;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.core.IdService;
import dev.idgen.core.form.IdForms;
import dev.idgen.spring.boot.autoconfigure.IdgenAutoConfiguration;
import dev.idgen.spring.boot.autoconfigure.diagnostics.IdgenStartupException;
import java.util.Base64;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.NestedExceptionUtils;

/**
 * idgen-forms is an optional dependency of the starter: an application that uses neither the public nor the shard form
 * starts without it, and one that configures either without it fails at start-up naming the dependency to add.
 */
class IdgenFormsModuleOptionalTest {

    private static final String KEY = Base64.getEncoder().encodeToString(new byte[32]);

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(IdgenAutoConfiguration.class))
            .withClassLoader(new FilteredClassLoader("dev.idgen.forms"))
            .withPropertyValues("idgen.snowflake.worker-id=0");

    @Test
    void anApplicationWithoutThePublicOrShardFormStartsWithoutTheModule() {
        runner.withPropertyValues(
                        "idgen.form=base62",
                        "idgen.generators.uuid.form=uuid-v7",
                        "idgen.generators.b32.strategy=snowflake",
                        "idgen.generators.b32.form=crockford32",
                        "idgen.generators.b32.snowflake.worker-id=1")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    IdService ids = context.getBean(IdService.class);
                    IdForms forms = context.getBean(IdForms.class);
                    long id = ids.nextId("order");
                    assertThat(forms.form("order").decode(forms.form("order").next()))
                            .containsEntry("strategy", "snowflake");
                    assertThat(id).isPositive();
                    assertThat(UUID.fromString(forms.form("uuid").next()).version())
                            .isEqualTo(7);
                    assertThat(forms.form("b32").next()).hasSize(13);
                });
    }

    @Test
    void thePublicFormWithoutTheModuleFailsNamingTheDependency() {
        runner.withPropertyValues(
                        "idgen.generators.token.strategy=snowflake",
                        "idgen.generators.token.form=public",
                        "idgen.generators.token.snowflake.worker-id=1",
                        "idgen.generators.token.public.keys.1=" + KEY)
                .run(context -> assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                        .isInstanceOfSatisfying(IdgenStartupException.class, e -> {
                            assertThat(e.getMessage())
                                    .contains("idgen.generators.token.form=public")
                                    .contains("dev.idgen.forms.publicid.PublicIdCodec");
                            assertThat(e.action()).contains("dev.idgen:idgen-forms");
                        }));
    }

    @Test
    void theDefaultGeneratorsPublicFormWithoutTheModuleFailsNamingTheDependency() {
        runner.withPropertyValues("idgen.form=public", "idgen.public.keys.1=" + KEY)
                .run(context -> assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                        .isInstanceOfSatisfying(IdgenStartupException.class, e -> {
                            assertThat(e.getMessage()).contains("idgen.form=public");
                            assertThat(e.action()).contains("dev.idgen:idgen-forms");
                        }));
    }

    @Test
    void theShardFormWithoutTheModuleFailsNamingTheDependency() {
        runner.withPropertyValues(
                        "idgen.generators.order.strategy=snowflake",
                        "idgen.generators.order.form=shard",
                        "idgen.generators.order.snowflake.worker-id=1")
                .run(context -> assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                        .isInstanceOfSatisfying(IdgenStartupException.class, e -> {
                            assertThat(e.getMessage()).contains("idgen.generators.order.form=shard");
                            assertThat(e.action()).contains("dev.idgen:idgen-forms");
                        }));
    }

    @Test
    void withTheModuleThePublicFormStarts() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(IdgenAutoConfiguration.class))
                .withPropertyValues(
                        "idgen.snowflake.worker-id=0",
                        "idgen.generators.token.strategy=snowflake",
                        "idgen.generators.token.form=public",
                        "idgen.generators.token.snowflake.worker-id=1",
                        "idgen.generators.token.public.keys.1=" + KEY)
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    IdForms forms = context.getBean(IdForms.class);
                    String token = forms.form("token").next();
                    assertThat(forms.form("token").decode(token)).containsKey("timestamp");
                });
    }
}
