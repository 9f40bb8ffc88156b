package dev.idgen.samples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * {@link AotProcessedProfilesTest} covers every profile of the sample: a profile added later fails here until it is
 * added to that test's list (with the services it needs).
 */
class AotProfileListTest {

    @Test
    void theAotTestListsEveryProfileOfTheSample() throws IOException {
        List<String> profiles = new ArrayList<>(List.of("default"));
        try (Stream<Path> files = Files.list(Path.of("src", "main", "resources"))) {
            files.map(file -> file.getFileName().toString())
                    .filter(name -> name.startsWith("application-") && name.endsWith(".yml"))
                    .map(name -> name.substring("application-".length(), name.length() - ".yml".length()))
                    .forEach(profiles::add);
        }
        assertThat(profiles).contains("redis", "zookeeper");
        assertThat(AotProcessedProfilesTest.PROFILES).containsExactlyInAnyOrderElementsOf(profiles);
    }
}
