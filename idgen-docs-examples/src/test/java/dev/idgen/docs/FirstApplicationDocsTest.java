package dev.idgen.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docs/first-application.md and the README's first application show the files the build compiles and runs
 * (FirstApplicationTest), unchanged: every block under a {@code <!-- source: path -->} comment is that file, character
 * for character, and every Java, YAML and XML block of the page has such a comment. The page's pom.xml cannot be built
 * by the reactor, so its dependencies are checked against idgen-docs-examples/pom.xml, which compiles the code.
 * docs/entity-ids.md shows the same JPA entity, checked the same way.
 */
class FirstApplicationDocsTest {

    private static final Set<String> CODE = Set.of("java", "yaml", "yml", "xml");

    @Test
    void everyBlockOfTheFirstApplicationIsItsSourceFile() {
        List<Docs.Block> blocks = Docs.blocks(Docs.read(Docs.root().resolve("docs/first-application.md")));
        assertThat(blocks.stream().filter(b -> b.source() != null))
                .as("blocks with a source")
                .hasSizeGreaterThan(6);
        for (Docs.Block block : blocks) {
            if (CODE.contains(block.language())) {
                assertThat(block.source())
                        .as(
                                "docs/first-application.md:%d: a %s block needs a <!-- source: path -->"
                                        + " comment right above it",
                                block.line(), block.language())
                        .isNotNull();
            }
            checkSource("docs/first-application.md", block);
        }
    }

    @Test
    void everySqlBlockOfTheFirstApplicationIsRunByFirstApplicationTest() {
        String markdown = Docs.read(Docs.root().resolve("docs/first-application.md"));
        List<Docs.Block> sql = Docs.blocks(markdown).stream()
                .filter(b -> b.language().equals("sql"))
                .toList();
        assertThat(sql).as("the page's SQL blocks").hasSize(2);
        for (Docs.Block block : sql) {
            assertThat(Docs.commentAbove(markdown, block, "run"))
                    .as(
                            "docs/first-application.md:%d: FirstApplicationTest runs the SQL blocks marked"
                                    + " <!-- run: mariadb --> and <!-- run: postgresql -->",
                            block.line())
                    .isIn("mariadb", "postgresql");
        }
    }

    @Test
    void theReadmesFirstApplicationIsItsSourceFiles() {
        List<Docs.Block> sourced = Docs.blocks(Docs.read(Docs.root().resolve("README.md"))).stream()
                .filter(b -> b.source() != null)
                .toList();
        assertThat(sourced)
                .extracting(Docs.Block::source)
                .contains(
                        "idgen-docs-examples/examples/mariadb/application.yml",
                        "idgen-docs-examples/src/main/java/com/example/shop/PurchaseOrder.java");
        sourced.forEach(block -> checkSource("README.md", block));
    }

    @Test
    void theEntityIdsPagesJpaEntityIsTheFirstApplicationsSourceFile() {
        List<Docs.Block> sourced = Docs.blocks(Docs.read(Docs.root().resolve("docs/entity-ids.md"))).stream()
                .filter(b -> b.source() != null)
                .toList();
        assertThat(sourced)
                .extracting(Docs.Block::source)
                .contains("idgen-docs-examples/src/main/java/com/example/shop/PurchaseOrder.java");
        sourced.forEach(block -> checkSource("docs/entity-ids.md", block));
    }

    @Test
    void theDocumentedPomsDeclareWhatTheExampleModuleUses() {
        Set<String> module = dependencies(Docs.read(Docs.root().resolve("idgen-docs-examples/pom.xml")));
        Set<String> mariadb =
                dependencies(Docs.read(Docs.root().resolve("idgen-docs-examples/examples/mariadb/pom.xml")));
        Set<String> postgresql =
                dependencies(Docs.read(Docs.root().resolve("idgen-docs-examples/examples/postgresql/pom.xml")));

        Set<String> documented = new TreeSet<>(mariadb);
        documented.addAll(postgresql);
        documented.removeIf(d -> d.endsWith(":test"));
        Set<String> used = new TreeSet<>(module);
        used.removeIf(d -> d.endsWith(":test"));
        assertThat(documented)
                .as("the documented poms' dependencies (both drivers) = the example module's")
                .isEqualTo(used);
        assertThat(mariadb)
                .contains(
                        "org.mariadb.jdbc:mariadb-java-client:runtime",
                        "org.springframework.boot:spring-boot-starter-test:test")
                .doesNotContain("org.postgresql:postgresql:runtime");
        assertThat(postgresql)
                .contains("org.postgresql:postgresql:runtime", "org.springframework.boot:spring-boot-starter-test:test")
                .doesNotContain("org.mariadb.jdbc:mariadb-java-client:runtime");
        assertThat(module).contains("org.springframework.boot:spring-boot-starter-test:test");
    }

    private static void checkSource(String page, Docs.Block block) {
        if (block.source() == null) {
            return;
        }
        Path file = Docs.root().resolve(block.source());
        assertThat(file)
                .as("%s:%d names %s", page, block.line(), block.source())
                .exists();
        String expected = Docs.read(file);
        assertThat(block.text())
                .as("%s:%d must be %s exactly (copy the file into the block)", page, block.line(), block.source())
                .isEqualTo(expected.endsWith("\n") ? expected : expected + "\n");
    }

    /** groupId:artifactId:scope of each dependency outside dependencyManagement, scope compile when unset. */
    static Set<String> dependencies(String pom) {
        String withoutManagement = pom.replaceAll("(?s)<dependencyManagement>.*?</dependencyManagement>", "")
                .replaceAll("(?s)<!--.*?-->", "");
        Matcher dependency =
                Pattern.compile("(?s)<dependency>(.*?)</dependency>").matcher(withoutManagement);
        Set<String> found = new TreeSet<>();
        while (dependency.find()) {
            String body = dependency.group(1);
            found.add(tag(body, "groupId") + ":" + tag(body, "artifactId") + ":"
                    + (tag(body, "scope") == null ? "compile" : tag(body, "scope")));
        }
        assertThat(found).isNotEmpty();
        return found;
    }

    private static String tag(String xml, String name) {
        Matcher m = Pattern.compile("<" + name + ">([^<]*)</" + name + ">").matcher(xml);
        return m.find() ? m.group(1).trim() : null;
    }
}
