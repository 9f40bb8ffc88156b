package dev.idgen.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The only table of properties is docs/properties.md, generated from the configuration metadata: no other page keeps
 * a hand-written one (a table row that starts with a property of the starter, its {@code [k]} or {@code <name>} part
 * standing for an index or a key), which would drift from the code.
 */
class OnePropertyTableTest {

    private static final Pattern ROW = Pattern.compile("^\\| `([a-z][^`]*)` \\|", Pattern.MULTILINE);

    @Test
    void noPageButThePropertyReferenceHasATableOfProperties() throws Exception {
        Set<String> known = new TreeSet<>();
        for (JsonNode property : PropertyReferenceTest.starterMetadata().get("properties")) {
            known.add(property.get("name").asString());
        }
        List<String> handWritten = new ArrayList<>();
        for (Path file : Docs.markdownFiles()) {
            if (file.getFileName().toString().equals("properties.md")) {
                continue;
            }
            Matcher row = ROW.matcher(Docs.read(file));
            while (row.find()) {
                String name = row.group(1);
                int cut = indexOfAny(name, '[', '<');
                String stem = cut < 0 ? name : name.substring(0, cut).replaceAll("\\.$", "");
                if (known.contains(stem)) {
                    handWritten.add(Docs.root().relativize(file) + ": " + name);
                }
            }
        }
        assertThat(handWritten)
                .as("property rows outside docs/properties.md: link to the property reference instead")
                .isEmpty();
    }

    private static int indexOfAny(String text, char a, char b) {
        int i = text.indexOf(a);
        int j = text.indexOf(b);
        return i < 0 ? j : j < 0 ? i : Math.min(i, j);
    }
}
