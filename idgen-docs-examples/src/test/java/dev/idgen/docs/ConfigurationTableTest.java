package dev.idgen.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * docs/configuration.md's hand-written table names only properties the starter has: each row's property (its
 * {@code [k]} or {@code <name>} part standing for an index or a key) is in the configuration metadata, so a renamed or
 * removed property cannot linger in the table.
 */
class ConfigurationTableTest {

    private static final Pattern ROW = Pattern.compile("^\\| `([a-z][^`]*)` \\|", Pattern.MULTILINE);

    @Test
    void everyPropertyOfTheTableExists() throws Exception {
        Set<String> known = new TreeSet<>();
        for (JsonNode property : PropertyReferenceTest.starterMetadata().get("properties")) {
            known.add(property.get("name").asString());
        }
        Matcher row = ROW.matcher(Docs.read(Docs.root().resolve("docs/configuration.md")));
        List<String> unknown = new ArrayList<>();
        int rows = 0;
        while (row.find()) {
            rows++;
            String name = row.group(1);
            int cut = indexOfAny(name, '[', '<');
            String stem = cut < 0 ? name : name.substring(0, cut).replaceAll("\\.$", "");
            if (!known.contains(stem)) {
                unknown.add(name);
            }
        }
        assertThat(rows).as("property rows in docs/configuration.md").isGreaterThan(40);
        assertThat(unknown)
                .as("properties in docs/configuration.md that the starter's metadata does not have")
                .isEmpty();
    }

    private static int indexOfAny(String text, char a, char b) {
        int i = text.indexOf(a);
        int j = text.indexOf(b);
        return i < 0 ? j : j < 0 ? i : Math.min(i, j);
    }
}
