package dev.idgen.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import dev.idgen.core.IdService;
import dev.idgen.core.form.IdForm;
import dev.idgen.core.form.IdForms;
import dev.idgen.spring.boot.autoconfigure.IdgenAutoConfiguration;
import dev.idgen.spring.boot.autoconfigure.diagnostics.IdgenStartupException;
import java.util.Base64;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.NestedExceptionUtils;

/**
 * The starter with idgen-forms truly absent: this module depends on the starter only, and the starter declares
 * idgen-forms optional, so no class of {@code dev.idgen.forms} is on this class path. Unlike a filtering class loader in
 * the starter's own tests, a hard link from the starter to the module would fail here with a
 * {@link NoClassDefFoundError}.
 */
class FormsModuleAbsentTest {

    private static final String KEY = Base64.getEncoder().encodeToString(new byte[32]);

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(IdgenAutoConfiguration.class))
            .withPropertyValues("idgen.snowflake.worker-id=0");

    @Test
    void idgenFormsIsNotOnTheClassPath() {
        assertThatExceptionOfType(ClassNotFoundException.class)
                .isThrownBy(() -> Class.forName("dev.idgen.forms.publicid.PublicIdCodec"));
        assertThatExceptionOfType(ClassNotFoundException.class)
                .isThrownBy(() -> Class.forName("dev.idgen.forms.shard.ShardedSnowflake"));
    }

    @Test
    void everyFormThatDoesNotNeedTheModuleStartsAndDraws() {
        runner.withPropertyValues(
                        "idgen.generators.num.strategy=snowflake",
                        "idgen.generators.num.form=number",
                        "idgen.generators.num.snowflake.worker-id=1",
                        "idgen.generators.b32.strategy=snowflake",
                        "idgen.generators.b32.form=crockford32",
                        "idgen.generators.b32.snowflake.worker-id=2",
                        "idgen.generators.b62.strategy=snowflake",
                        "idgen.generators.b62.form=base62",
                        "idgen.generators.b62.prefix=ord_",
                        "idgen.generators.b62.snowflake.worker-id=3",
                        "idgen.generators.uuid.form=uuid-v7",
                        "idgen.generators.guid.form=guid",
                        "idgen.generators.oid.form=object-id",
                        "idgen.generators.f128.form=flake128",
                        "idgen.generators.simple.form=simpleflake")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    IdService ids = context.getBean(IdService.class);
                    IdForms forms = context.getBean(IdForms.class);

                    assertThat(ids.nextId("num")).isPositive();
                    String number = forms.form("num").next();
                    assertThat(Long.parseLong(number)).isPositive();
                    assertThat(forms.form("num").decode(number)).containsEntry("strategy", "snowflake");

                    String b32 = forms.form("b32").next();
                    assertThat(b32).hasSize(13);
                    assertThat(forms.form("b32").decode(b32)).containsEntry("strategy", "snowflake");

                    String b62 = forms.form("b62").next();
                    assertThat(b62).startsWith("ord_").hasSize("ord_".length() + 11);
                    assertThat(forms.form("b62").decode(b62)).containsEntry("strategy", "snowflake");

                    assertThat(UUID.fromString(forms.form("uuid").next()).version())
                            .isEqualTo(7);
                    assertThat(UUID.fromString(forms.form("guid").next())).isNotNull();
                    assertThat(forms.form("oid").next()).matches("[0-9a-f]{24}");
                    for (String name : new String[] {"uuid", "guid", "oid", "f128", "simple"}) {
                        IdForm form = forms.form(name);
                        String first = form.next();
                        String second = form.next();
                        assertThat(second).as(name).isNotEqualTo(first);
                        assertThat(form.decode(second)).as(name).isNotEmpty();
                    }
                });
    }

    @Test
    void thePublicFormFailsStartUpNamingTheDependency() {
        runner.withPropertyValues(
                        "idgen.generators.token.strategy=snowflake",
                        "idgen.generators.token.form=public",
                        "idgen.generators.token.snowflake.worker-id=1",
                        "idgen.generators.token.public.keys.1=" + KEY)
                .run(context -> assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                        .isInstanceOfSatisfying(IdgenStartupException.class, e -> {
                            assertThat(e.getMessage()).contains("idgen.generators.token.form=public");
                            assertThat(e.action()).contains("dev.idgen:idgen-forms");
                        }));
    }
}
