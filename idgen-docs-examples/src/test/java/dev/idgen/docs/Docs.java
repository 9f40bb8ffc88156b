package dev.idgen.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/** The repository's Markdown: README.md and docs/*.md, read from the working tree the build runs in. */
final class Docs {

    private Docs() {}

    /** The repository's root: the build runs each module's tests in the module's folder. */
    static Path root() {
        Path module = Path.of("").toAbsolutePath();
        return Files.exists(module.resolve("README.md")) ? module : module.getParent();
    }

    static List<Path> markdownFiles() {
        List<Path> files = new ArrayList<>();
        files.add(root().resolve("README.md"));
        try (Stream<Path> docs = Files.list(root().resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(files::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return files;
    }

    static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A fenced code block: its language, its text (without the fences), and the source comment right above it. */
    record Block(String language, String text, String source, int line) {}

    static List<Block> blocks(String markdown) {
        List<Block> blocks = new ArrayList<>();
        String[] lines = markdown.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].startsWith("```")) {
                String language = lines[i].substring(3).trim();
                String source = null;
                int above = i - 1;
                if (above >= 0 && lines[above].startsWith("<!-- source: ") && lines[above].endsWith(" -->")) {
                    source = lines[above].substring("<!-- source: ".length(), lines[above].length() - " -->".length());
                }
                StringBuilder text = new StringBuilder();
                int j = i + 1;
                while (j < lines.length && !lines[j].startsWith("```")) {
                    text.append(lines[j]).append('\n');
                    j++;
                }
                blocks.add(new Block(language, text.toString(), source, i + 1));
                i = j;
            }
        }
        return blocks;
    }

    /**
     * The value of a {@code <!-- key: value -->} comment on the line right above a block's opening fence, or null:
     * e.g. {@code run} for the commands a test runs as a user would ({@code <!-- run: mariadb -->}).
     */
    static String commentAbove(String markdown, Block block, String key) {
        String[] lines = markdown.split("\n", -1);
        int above = block.line() - 2;
        String prefix = "<!-- " + key + ": ";
        if (above >= 0 && lines[above].startsWith(prefix) && lines[above].endsWith(" -->")) {
            return lines[above].substring(prefix.length(), lines[above].length() - " -->".length());
        }
        return null;
    }

    /** The Markdown without its fenced code blocks (their lines blanked, so line numbers stay). */
    static String prose(String markdown) {
        StringBuilder out = new StringBuilder();
        boolean fence = false;
        for (String line : markdown.split("\n", -1)) {
            if (line.startsWith("```")) {
                fence = !fence;
                out.append('\n');
                continue;
            }
            out.append(fence ? "" : line).append('\n');
        }
        return out.toString();
    }

    /** The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces to hyphens, -1, -2 on repeats. */
    static Set<String> anchors(String markdown) {
        Set<String> anchors = new LinkedHashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        for (String line : prose(markdown).split("\n")) {
            if (line.matches("#{1,6} .*")) {
                String slug = slug(line.replaceFirst("#{1,6} ", ""));
                int n = seen.merge(slug, 1, Integer::sum) - 1;
                anchors.add(n == 0 ? slug : slug + "-" + n);
            }
        }
        for (String line : markdown.split("\n")) { // explicit HTML anchors
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("<a (?:name|id)=\"([^\"]+)\"")
                    .matcher(line);
            while (m.find()) {
                anchors.add(m.group(1));
            }
        }
        return anchors;
    }

    static String slug(String heading) {
        StringBuilder slug = new StringBuilder();
        heading.trim().toLowerCase(Locale.ROOT).codePoints().forEach(c -> {
            if (Character.isLetterOrDigit(c) || c == '-' || c == '_') {
                slug.appendCodePoint(c);
            } else if (c == ' ') {
                slug.append('-');
            }
        });
        return slug.toString();
    }
}
