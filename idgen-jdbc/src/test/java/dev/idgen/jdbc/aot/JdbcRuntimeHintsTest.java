package dev.idgen.jdbc.aot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.jdbc.DatabaseDialect;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.aot.hint.ResourcePatternHint;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;
import org.springframework.core.io.support.SpringFactoriesLoader;

class JdbcRuntimeHintsTest {

    private final RuntimeHints hints = hints();

    private static RuntimeHints hints() {
        RuntimeHints hints = new RuntimeHints();
        new JdbcRuntimeHints().registerHints(hints, JdbcRuntimeHintsTest.class.getClassLoader());
        return hints;
    }

    @Test
    void everyDdlResourceTheDialectsLoadIsIncluded() {
        for (DatabaseDialect dialect : DatabaseDialect.values()) {
            for (String kind : List.of("segment", "ticket", "worker")) {
                String resource = dialect.ddlResource(kind);
                assertThat(RuntimeHintsPredicates.resource().forResource(resource))
                        .as(resource)
                        .accepts(hints);
                // The hint matters only because the dialect really reads it.
                assertThat(dialect.ddl(kind, "idgen_t")).as(resource).startsWith("CREATE TABLE");
            }
        }
    }

    @Test
    void theMigrationsIdgenShipsForFlywayAndLiquibaseAreIncluded() {
        for (String vendor : List.of("h2", "mariadb", "mysql", "postgresql")) {
            assertThat(RuntimeHintsPredicates.resource()
                            .forResource("db/idgen/flyway/" + vendor + "/R__idgen_tables.sql"))
                    .as(vendor)
                    .accepts(hints);
        }
        assertThat(RuntimeHintsPredicates.resource().forResource("db/changelog/idgen/idgen-tables.xml"))
                .accepts(hints);
    }

    @Test
    void everyRegisteredPatternMatchesResourcesOnTheClassPath() throws IOException {
        PathMatchingResourcePatternResolver resolver = new PathMatchingResourcePatternResolver();
        // Spring adds each pattern's parent directories ("db", "db/idgen", ...) as patterns of their own.
        List<String> patterns = hints.resources()
                .resourcePatternHints()
                .flatMap(patternHints -> patternHints.getIncludes().stream())
                .map(ResourcePatternHint::getPattern)
                .toList();
        assertThat(patterns)
                .contains(
                        JdbcRuntimeHints.DDL, JdbcRuntimeHints.FLYWAY_MIGRATIONS, JdbcRuntimeHints.LIQUIBASE_CHANGELOG);
        for (String pattern : patterns) {
            assertThat(resolver.getResources("classpath*:" + pattern))
                    .as(pattern)
                    .isNotEmpty();
        }
    }

    @Test
    void springsAheadOfTimeProcessingFindsTheRegistrar() {
        List<RuntimeHintsRegistrar> registrars = SpringFactoriesLoader.forResourceLocation(
                        "META-INF/spring/aot.factories")
                .load(RuntimeHintsRegistrar.class);
        assertThat(registrars).hasAtLeastOneElementOfType(JdbcRuntimeHints.class);
    }
}
