package dev.idgen.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * docs/properties.md is generated from the configuration metadata of the starter and of the ID server
 * ({@code META-INF/spring-configuration-metadata.json}, which Spring Boot's processor builds from the properties classes
 * and merges with {@code additional-spring-configuration-metadata.json}): every property with its type, default and
 * description, grouped. The starter's comes from the class path; the server's ({@code idgen.server.*}) from
 * idgen-server's build output, as this module does not depend on the server (whose jar would bring its own
 * application.yaml and web stack onto the class path): build idgen-server in the same run. This test renders the page
 * and fails when the file differs. To rewrite the file:
 * <pre>
 * ./mvnw -B -o -pl idgen-server,idgen-docs-examples -am test -Dtest=PropertyReferenceTest -Dsurefire.failIfNoSpecifiedTests=false -Didgen.docs.write=true
 * </pre>
 */
class PropertyReferenceTest {

    static final String REGENERATE = "./mvnw -B -o -pl idgen-server,idgen-docs-examples -am test"
            + " -Dtest=PropertyReferenceTest"
            + " -Dsurefire.failIfNoSpecifiedTests=false -Didgen.docs.write=true";

    /** Groups in the order the page lists them: title and the property names they take. */
    private static final Map<String, String> GROUPS = new LinkedHashMap<>();

    static {
        GROUPS.put("Top level", "idgen.enabled, idgen.strategy, idgen.max-names and other idgen.<key> without a group");
        GROUPS.put("Snowflake", "idgen.snowflake.*");
        GROUPS.put("Segments", "idgen.segment.*");
        GROUPS.put("Tickets", "idgen.ticket.*");
        GROUPS.put("Redis", "idgen.redis.*");
        GROUPS.put("JDBC", "idgen.jdbc.*");
        GROUPS.put(
                "Forms",
                "idgen.form, idgen.prefix, idgen.period*, idgen.flake128.*, idgen.guid.*, idgen.shard.*, "
                        + "idgen.public.*");
        GROUPS.put("Generators: `idgen.generators.<name>.*`", "idgen.generators*");
        GROUPS.put("JSON", "idgen.json.*");
        GROUPS.put("Admin", "idgen.admin.*");
        GROUPS.put("Reactive", "idgen.reactive.*");
        GROUPS.put("Web", "idgen.web.*");
        GROUPS.put("Server: `idgen.server.*`", "idgen.server.*");
        GROUPS.put("Actuator", "management.*");
        GROUPS.put("Other", "anything else");
    }

    static String group(String name) {
        String key = name.startsWith("idgen.") ? name.substring("idgen.".length()) : null;
        if (key == null) {
            return name.startsWith("management.") ? "Actuator" : "Other";
        }
        String first = key.contains(".") ? key.substring(0, key.indexOf('.')) : key;
        return switch (first) {
            case "snowflake" -> "Snowflake";
            case "segment" -> "Segments";
            case "ticket" -> "Tickets";
            case "redis" -> "Redis";
            case "jdbc" -> "JDBC";
            case "form", "prefix", "period", "period-digits", "period-zone", "flake128", "guid", "shard", "public" ->
                "Forms";
            case "generators" -> "Generators: `idgen.generators.<name>.*`";
            case "json" -> "JSON";
            case "admin" -> "Admin";
            case "reactive" -> "Reactive";
            case "web" -> "Web";
            case "server" -> "Server: `idgen.server.*`";
            default -> key.contains(".") ? "Other" : "Top level";
        };
    }

    @Test
    void docsPropertiesMdIsGeneratedFromTheMetadata() throws IOException {
        JsonNode metadata = merged(starterMetadata(), serverMetadata());
        String rendered = render(metadata);
        Path file = Docs.root().resolve("docs/properties.md");
        if (Boolean.getBoolean("idgen.docs.write")) {
            Files.writeString(file, rendered, StandardCharsets.UTF_8);
        }
        String current = Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
        assertThat(current)
                .as(
                        "docs/properties.md is not what the configuration metadata gives; regenerate it with%n  %s%n",
                        REGENERATE)
                .isEqualTo(rendered);
        for (JsonNode property : metadata.get("properties")) {
            assertThat(current)
                    .as("docs/properties.md lists every property")
                    .contains("`" + property.get("name").asString() + "`");
        }
    }

    /** The starter's metadata: of the class path's metadata files, the one that describes idgen.strategy. */
    static JsonNode starterMetadata() throws IOException {
        JsonMapper json = JsonMapper.builder().build();
        List<URL> files = Collections.list(PropertyReferenceTest.class
                .getClassLoader()
                .getResources("META-INF/spring-configuration-metadata.json"));
        for (URL url : files) {
            try (InputStream in = url.openStream()) {
                JsonNode node = json.readTree(in);
                for (JsonNode property : node.path("properties")) {
                    if (property.path("name").asString("").equals("idgen.strategy")) {
                        return node;
                    }
                }
            }
        }
        throw new AssertionError(
                "No META-INF/spring-configuration-metadata.json on the class path describes idgen.strategy"
                        + " (searched " + files + "): build the starter first");
    }

    /** idgen-server's metadata ({@code idgen.server.*}), from its build output. */
    static JsonNode serverMetadata() throws IOException {
        Path file = Docs.root().resolve("idgen-server/target/classes/META-INF/spring-configuration-metadata.json");
        if (!Files.exists(file)) {
            throw new AssertionError(file + " is missing: build idgen-server in the same run (" + REGENERATE + ")");
        }
        return JsonMapper.builder().build().readTree(Files.readString(file, StandardCharsets.UTF_8));
    }

    /** @return one metadata document with the properties and hints of both */
    static JsonNode merged(JsonNode starter, JsonNode server) {
        ObjectNode merged = JsonNodeFactory.instance.objectNode();
        for (String field : List.of("properties", "hints")) {
            ArrayNode all = merged.putArray(field);
            starter.path(field).forEach(all::add);
            server.path(field).forEach(all::add);
        }
        return merged;
    }

    static String render(JsonNode metadata) {
        Map<String, List<String>> hints = new TreeMap<>();
        for (JsonNode hint : metadata.path("hints")) {
            List<String> values = new ArrayList<>();
            hint.path("values").forEach(v -> values.add(v.path("value").asString()));
            hints.put(hint.path("name").asString(), values);
        }
        Map<String, List<JsonNode>> byGroup = new LinkedHashMap<>();
        GROUPS.keySet().forEach(g -> byGroup.put(g, new ArrayList<>()));
        List<JsonNode> properties = new ArrayList<>();
        metadata.path("properties").forEach(properties::add);
        properties.sort(
                (a, b) -> a.path("name").asString().compareTo(b.path("name").asString()));
        properties.forEach(p -> byGroup.get(group(p.path("name").asString())).add(p));

        StringBuilder md = new StringBuilder();
        md.append("# Property reference\n\n");
        md.append(
                        "<!-- Generated by PropertyReferenceTest (idgen-docs-examples) from the configuration metadata of the starter and idgen-server:"
                                + " do not edit. Regenerate with\n     ")
                .append(REGENERATE)
                .append(" -->\n\n");
        md.append("Every property of the idgen starter and of the ID server (`idgen.server.*`, read by idgen-server"
                        + " only: see [The ID server tier](server.md)), from the configuration metadata the build"
                        + " generates (IDEs complete and document the same). Durations take `500ms`, `5s`, `1m`; a value out of range fails"
                        + " start-up naming the property and the rule. ")
                .append(properties.size())
                .append(" properties.\n\n");
        md.append(byGroup.entrySet().stream()
                        .filter(e -> !e.getValue().isEmpty())
                        .map(e -> "[" + e.getKey() + "](#" + Docs.slug(e.getKey()) + ")")
                        .collect(Collectors.joining(" · ")))
                .append("\n");
        for (Map.Entry<String, List<JsonNode>> group : byGroup.entrySet()) {
            if (group.getValue().isEmpty()) {
                continue;
            }
            md.append("\n## ").append(group.getKey()).append("\n\n");
            if (group.getKey().startsWith("Generators")) {
                md.append("`idgen.generators.<name>.strategy` gives the name `<name>` a generator of its own; every key"
                        + " of the other groups also works under `idgen.generators.<name>.` (for example"
                        + " `idgen.generators.invoice.segment.step`), inheriting the top-level value when unset, except"
                        + " the shared `idgen.enabled`, `idgen.admin.*`, `idgen.redis.timeout` and"
                        + " `idgen.redis.buckets.*`, which fail start-up there. See"
                        + " [Several generators](generators.md).\n\n");
            }
            md.append("| property | type | default | description |\n|---|---|---|---|\n");
            for (JsonNode p : group.getValue()) {
                String name = p.path("name").asString();
                String type = "`" + shortType(p.path("type").asString("")) + "`";
                if (hints.containsKey(name)) {
                    type = type + ": "
                            + hints.get(name).stream().map(v -> "`" + v + "`").collect(Collectors.joining(", "));
                }
                JsonNode def = p.get("defaultValue");
                String defaultValue = def == null || def.isNull()
                        ? "–"
                        : "`" + (def.isString() ? def.asString() : def.toString()) + "`";
                String description =
                        p.path("description").asString("").replace("\n", " ").replace("<", "&lt;");
                if (p.has("deprecation") || p.path("deprecated").asBoolean(false)) {
                    JsonNode deprecation = p.path("deprecation");
                    description = "**Deprecated**"
                            + (deprecation.has("replacement")
                                    ? ": use `"
                                            + deprecation.path("replacement").asString() + "`"
                                    : "")
                            + ". " + description;
                }
                md.append("| `")
                        .append(name)
                        .append("` | ")
                        .append(cell(type))
                        .append(" | ")
                        .append(cell(defaultValue))
                        .append(" | ")
                        .append(cell(description))
                        .append(" |\n");
            }
        }
        return md.toString();
    }

    /** {@code java.util.Map<java.lang.String,a.b.C$D>} as {@code Map<String, D>}. */
    static String shortType(String type) {
        if (type.isEmpty()) {
            return "–";
        }
        return type.replaceAll("[a-zA-Z_][\\w]*\\.", "")
                .replaceAll("\\w+\\$", "")
                .replace(",", ", ");
    }

    private static String cell(String text) {
        return text.replace("|", "\\|");
    }
}
