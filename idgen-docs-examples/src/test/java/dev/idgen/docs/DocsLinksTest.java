package dev.idgen.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Every relative link in README.md and docs/*.md points to a file that exists, and to a heading that exists in it. */
class DocsLinksTest {

    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");

    @Test
    void everyRelativeLinkResolves() {
        List<String> broken = new ArrayList<>();
        int checked = 0;
        for (Path file : Docs.markdownFiles()) {
            String markdown = Docs.read(file);
            String[] lines = Docs.prose(markdown).split("\n");
            for (int i = 0; i < lines.length; i++) {
                Matcher link = LINK.matcher(lines[i].replaceAll("`[^`]*`", ""));
                while (link.find()) {
                    String target = link.group(1);
                    if (target.matches("[a-z]+:.*")) {
                        continue; // http:, https:, mailto:
                    }
                    checked++;
                    int hash = target.indexOf('#');
                    String path = hash < 0 ? target : target.substring(0, hash);
                    String anchor = hash < 0 ? null : target.substring(hash + 1);
                    Path resolved = path.isEmpty()
                            ? file
                            : file.getParent().resolve(path).normalize();
                    String where = Docs.root().relativize(file) + ":" + (i + 1) + " -> " + target;
                    if (!Files.exists(resolved)) {
                        broken.add(where + " (no such file)");
                    } else if (anchor != null
                            && resolved.toString().endsWith(".md")
                            && !Docs.anchors(Docs.read(resolved)).contains(anchor)) {
                        broken.add(where + " (no such heading)");
                    }
                }
            }
        }
        assertThat(checked).as("relative links checked").isGreaterThan(50);
        assertThat(broken).as("broken relative links").isEmpty();
    }
}
