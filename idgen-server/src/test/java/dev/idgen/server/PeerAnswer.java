package dev.idgen.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * An answer Leaf or Tinyid gave, as recorded with {@code curl -si} (trimmed copies under {@code peers/} on the test
 * class path), and the shape of an answer: its status, its Content-Type and its body with the values left out (JSON:
 * the fields in their order and each value's type; text: the numbers as {@code N}), so that this server's answer can
 * be compared with the recording, timestamps and IDs aside.
 *
 * @param status the status code
 * @param contentType the Content-Type header, or {@code null}
 * @param body the body
 */
record PeerAnswer(int status, String contentType, String body) {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** @param name the recording's file name under {@code peers/}, without {@code .txt} */
    static PeerAnswer recorded(String name) {
        String text;
        try (InputStream in = PeerAnswer.class.getResourceAsStream("/peers/" + name + ".txt")) {
            if (in == null) {
                throw new IllegalArgumentException("No recording peers/" + name + ".txt");
            }
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
        lines.removeIf(line -> line.startsWith("#"));
        int status = Integer.parseInt(lines.get(0).split(" ")[1]);
        String contentType = null;
        int i = 1;
        for (; !lines.get(i).isEmpty(); i++) {
            if (lines.get(i).regionMatches(true, 0, "Content-Type:", 0, 13)) {
                contentType = lines.get(i).substring(13).trim();
            }
        }
        return new PeerAnswer(status, contentType, String.join("\n", lines.subList(i + 1, lines.size())));
    }

    /** @return the body's shape: JSON without its values, or text with every number as {@code N} */
    String shape() {
        if (body.startsWith("{") || body.startsWith("[")) {
            return shape(JSON.readTree(body));
        }
        return body.replaceAll("-?[0-9]+", "N");
    }

    private static String shape(JsonNode node) {
        if (node.isObject()) {
            StringBuilder shape = new StringBuilder("{");
            Iterator<Map.Entry<String, JsonNode>> fields = node.properties().iterator();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> field = fields.next();
                shape.append(field.getKey()).append(':').append(shape(field.getValue()));
                shape.append(fields.hasNext() ? "," : "");
            }
            return shape.append('}').toString();
        }
        if (node.isArray()) {
            return node.isEmpty() ? "[]" : "[" + shape(node.get(0)) + "...]";
        }
        return node.isNull()
                ? "null"
                : node.isNumber()
                        ? "number"
                        : node.isString() ? "string" : node.getNodeType().name();
    }
}
