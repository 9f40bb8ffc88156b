package dev.idgen.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The starter's packages in layers, and the direction of their imports: a package may use the ones below it in
 * {@link #LAYERS}, never one above it or beside it, so that no cycle can form between packages. Read from the compiled
 * classes (ArchUnit), so a dependency cannot hide in a field type, a constructor call, an annotation or a lambda;
 * imports written only for Javadoc do not count, as they are not dependencies. {@code docs/architecture.md} draws the
 * same layers.
 */
class StarterLayersTest {

    private static final String AC = "dev.idgen.spring.boot.autoconfigure";

    private static final String SPRING = "dev.idgen.spring";

    /** Top first. Within a line, packages are peers: none of them uses another. */
    static final List<List<String>> LAYERS = List.of(
            // Auto-configurations over the generators: they read what the root package built.
            List.of(AC + ".aot", AC + ".entity", AC + ".endpoint", AC + ".startup", AC + ".json", AC + ".web"),
            List.of(AC + ".health", AC + ".metrics", AC + ".reactive"),
            // IdgenAutoConfiguration, IdgenStrategies (each strategy's wiring and settings), which stores are in use.
            List.of(AC),
            // The strategies.
            List.of(AC + ".snowflake", AC + ".ticket"),
            List.of(AC + ".segment"),
            // The stores, and the redis strategy, which is also a store for segments and worker ids.
            List.of(AC + ".remote", AC + ".redis"),
            // With the engines' packages (etcd, zookeeper): a store that plugs in by its line in IdgenStores is
            // placed here without a line of its own.
            withEngines(AC + ".jdbc"),
            List.of(AC + ".forms"),
            // The generators' definitions and settings, the conditions and the SPIs the strategies implement.
            List.of(AC + ".core"),
            List.of(AC + ".diagnostics"),
            // The library parts the auto-configuration wires (Jackson, MVC, reactive adapters).
            List.of(SPRING + ".jackson", SPRING + ".web"),
            List.of(SPRING),
            List.of(SPRING + ".reactive"));

    private static JavaClasses starter;

    private static List<String> withEngines(String... packages) {
        List<String> layer = new ArrayList<>(List.of(packages));
        IdgenStores.ENGINES.forEach(engine -> layer.add(engine.getClass().getPackageName()));
        return List.copyOf(layer);
    }

    @BeforeAll
    static void importStarter() {
        starter = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages(SPRING);
    }

    @Test
    void everyPackageHasALayer() {
        Set<String> unplaced = new TreeSet<>();
        for (JavaClass type : starter) {
            if (layer(type.getPackageName()) < 0) {
                unplaced.add(type.getPackageName());
            }
        }
        assertThat(unplaced)
                .as("packages not in StarterLayersTest.LAYERS (place each, and draw it in docs/architecture.md)")
                .isEmpty();
    }

    @Test
    void noImportPointsUpOrSideways() {
        Map<String, List<String>> upward = new TreeMap<>();
        for (Map.Entry<String, List<String>> arrow : arrows().entrySet()) {
            String[] ends = arrow.getKey().split(" -> ");
            if (layer(ends[0]) <= layer(ends[1])) {
                upward.put(arrow.getKey(), arrow.getValue());
            }
        }
        assertThat(upward)
                .as("imports that point up or sideways in the starter, with the classes that make them; a package may"
                        + " use only those below it in StarterLayersTest.LAYERS")
                .isEmpty();
    }

    /** @return each arrow between two packages, {@code from -> to}, with a few of the class dependencies behind it */
    private static Map<String, List<String>> arrows() {
        Map<String, List<String>> arrows = new TreeMap<>();
        for (JavaClass type : starter) {
            for (Dependency dependency : type.getDirectDependenciesFromSelf()) {
                JavaClass target = dependency.getTargetClass();
                String from = type.getPackageName();
                String to = target.getPackageName();
                if (!to.startsWith(SPRING) || from.equals(to)) {
                    continue;
                }
                List<String> why = arrows.computeIfAbsent(from + " -> " + to, key -> new ArrayList<>());
                String pair = type.getSimpleName() + " -> " + target.getSimpleName();
                if (why.size() < 4 && !why.contains(pair)) {
                    why.add(pair);
                }
            }
        }
        return arrows;
    }

    private static int layer(String packageName) {
        for (int i = 0; i < LAYERS.size(); i++) {
            if (LAYERS.get(i).contains(packageName)) {
                return LAYERS.size() - i;
            }
        }
        return -1;
    }
}
