package dev.idgen.spring.boot.autoconfigure.aot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.spring.IdgenId;
import dev.idgen.spring.IdgenIdGenerator;
import dev.idgen.spring.boot.autoconfigure.core.IdgenDependency;
import dev.idgen.spring.boot.autoconfigure.etcd.EtcdProperties;
import dev.idgen.spring.boot.autoconfigure.snowflake.SnowflakeProperties;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeReference;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.core.io.support.SpringFactoriesLoader;
import org.springframework.util.StringUtils;

class IdgenRuntimeHintsTest {

    private static RuntimeHints hints(ClassLoader classLoader) {
        RuntimeHints hints = new RuntimeHints();
        new IdgenRuntimeHints().registerHints(hints, classLoader);
        return hints;
    }

    @Test
    void hibernateCanCreateTheGeneratorAndReadTheAnnotation() throws NoSuchMethodException {
        RuntimeHints hints = hints(getClass().getClassLoader());
        assertThat(RuntimeHintsPredicates.reflection().onConstructorInvocation(IdgenIdGenerator.class.getConstructor()))
                .accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(IdgenId.class, "value"))
                .accepts(hints);
    }

    @Test
    void withoutHibernateTheGeneratorIsLeftOut() {
        RuntimeHints hints = hints(new FilteredClassLoader("org.hibernate"));
        assertThat(RuntimeHintsPredicates.reflection().onType(IdgenIdGenerator.class))
                .rejects(hints);
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(IdgenId.class, "value"))
                .accepts(hints);
    }

    @Test
    void everyClassTheStarterLooksUpByNameIsFindable() throws IllegalAccessException {
        RuntimeHints hints = hints(getClass().getClassLoader());
        // Every optional dependency the starter declares is in IdgenDependency.all(), so none is left unhinted.
        for (Field field : IdgenDependency.class.getDeclaredFields()) {
            if (Modifier.isStatic(field.getModifiers()) && field.getType() == IdgenDependency.class) {
                assertThat(IdgenDependency.all()).as(field.getName()).contains((IdgenDependency) field.get(null));
            }
        }
        List<String> names = IdgenRuntimeHints.classesLookedUpByName();
        assertThat(names)
                .contains("io.lettuce.core.RedisClient", "dev.idgen.etcd.EtcdSegmentStore")
                .contains(IdgenDependency.JDBC.classes());
        for (String name : names) {
            assertThat(RuntimeHintsPredicates.reflection().onType(TypeReference.of(name)))
                    .as(name)
                    .accepts(hints);
        }
    }

    @Test
    void everySettingsSectionCanBeBound() throws NoSuchMethodException {
        RuntimeHints hints = hints(getClass().getClassLoader());
        assertThat(IdgenRuntimeHints.sectionTypes()).contains(SnowflakeProperties.class, EtcdProperties.class);
        for (Class<?> type : IdgenRuntimeHints.sectionTypes()) {
            assertThat(RuntimeHintsPredicates.reflection().onConstructorInvocation(type.getConstructor()))
                    .as(type.getName())
                    .accepts(hints);
        }
        assertThat(RuntimeHintsPredicates.reflection()
                        .onMethodInvocation(SnowflakeProperties.class.getMethod("setWorkerId", long.class)))
                .accepts(hints);
    }

    @Test
    void aClassThatIsAbsentAtBuildTimeIsNotRegistered() {
        RuntimeHints hints = hints(new FilteredClassLoader("io.etcd.jetcd"));
        assertThat(RuntimeHintsPredicates.reflection().onType(TypeReference.of("io.etcd.jetcd.Client")))
                .rejects(hints);
        assertThat(RuntimeHintsPredicates.reflection().onType(TypeReference.of("io.lettuce.core.RedisClient")))
                .accepts(hints);
    }

    /**
     * The failure analyzers and the initialization detector are made reflectively from spring.factories; the hints
     * for them come from Spring's own registrar, which Spring's AOT processing loads beside this one.
     */
    @Test
    void springsAheadOfTimeProcessingFindsTheRegistrarAndCoversSpringFactories() throws Exception {
        List<RuntimeHintsRegistrar> registrars = SpringFactoriesLoader.forResourceLocation(
                        "META-INF/spring/aot.factories")
                .load(RuntimeHintsRegistrar.class);
        assertThat(registrars).hasAtLeastOneElementOfType(IdgenRuntimeHints.class);
        RuntimeHints hints = new RuntimeHints();
        registrars.forEach(
                registrar -> registrar.registerHints(hints, getClass().getClassLoader()));

        Properties factories = new Properties();
        try (InputStream in = IdgenRuntimeHints.class.getResourceAsStream("/META-INF/spring.factories")) {
            factories.load(in);
        }
        List<String> implementations = factories.values().stream()
                .flatMap(value -> Arrays.stream(StringUtils.commaDelimitedListToStringArray((String) value)))
                .map(String::trim)
                .filter(name -> name.startsWith("dev.idgen."))
                .toList();
        assertThat(implementations).contains("dev.idgen.spring.boot.autoconfigure.diagnostics.IdgenFailureAnalyzer");
        for (String name : implementations) {
            Class<?> type = Class.forName(name);
            assertThat(Arrays.stream(type.getDeclaredConstructors())
                            .anyMatch(constructor -> RuntimeHintsPredicates.reflection()
                                    .onConstructorInvocation(constructor)
                                    .test(hints)))
                    .as(name + " can be made")
                    .isTrue();
        }
    }

    @Test
    void theStarterRegistersNoResourcesOfItsOwn() throws IOException {
        // Its resources are spring.factories and the auto-configuration imports, which Spring registers itself.
        assertThat(hints(getClass().getClassLoader()).resources().resourcePatternHints())
                .isEmpty();
    }
}
