package dev.idgen.client;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small strict JSON reader for the servers' answers, so that the client needs no JSON library: it reads one
 * object into maps, lists, strings, {@link BigDecimal}s, booleans and nulls. Nested values are read (and checked) so
 * that fields a newer server adds are skipped safely; anything that is not JSON is refused.
 *
 * <p>Why not a JSON library. The client runs inside the user's application, beside whatever JSON library that already
 * has: Jackson 2 ({@code com.fasterxml}), Jackson 3 ({@code tools.jackson}, Spring Boot 4's), Gson, or none. Any
 * one of them as a dependency of the client would either force a second copy, or a version, on the application, or
 * tie the client to one major line of it; the JDK has no JSON reader. What the client reads is small and fixed: one
 * block or one problem per request, a handful of flat fields, a few hundred bytes, once per block of IDs (not per ID),
 * so speed is no argument either way. The price is this reader, about 250 lines, held to JSON's grammar by
 * {@code RemoteJsonTest} (malformed answers refused, nesting bounded at {@value #MAX_DEPTH}).
 */
final class FlatJson {

    /** Deeper nesting than this is refused: the answers are flat, and recursion must stay bounded. */
    private static final int MAX_DEPTH = 16;

    private final String text;

    private int at;

    private FlatJson(String text) {
        this.text = text;
    }

    /**
     * @return the object's fields, in order
     * @throws IllegalArgumentException when {@code text} is not exactly one JSON object
     */
    static Map<String, Object> parseObject(String text) {
        if (text == null) {
            throw new IllegalArgumentException("no body");
        }
        FlatJson json = new FlatJson(text);
        json.skipWhitespace();
        if (json.peek() != '{') {
            throw json.error("expected an object");
        }
        Map<String, Object> object = json.object(0);
        json.skipWhitespace();
        if (json.at != text.length()) {
            throw json.error("unexpected text after the object");
        }
        return object;
    }

    private Object value(int depth) {
        skipWhitespace();
        char c = peek();
        if (c == '{') {
            return object(depth + 1);
        }
        if (c == '[') {
            return array(depth + 1);
        }
        if (c == '"') {
            return string();
        }
        if (c == '-' || (c >= '0' && c <= '9')) {
            return number();
        }
        if (text.startsWith("true", at)) {
            at += 4;
            return Boolean.TRUE;
        }
        if (text.startsWith("false", at)) {
            at += 5;
            return Boolean.FALSE;
        }
        if (text.startsWith("null", at)) {
            at += 4;
            return null;
        }
        throw error("expected a value");
    }

    private Map<String, Object> object(int depth) {
        if (depth > MAX_DEPTH) {
            throw error("nested too deeply");
        }
        expect('{');
        Map<String, Object> object = new LinkedHashMap<>();
        skipWhitespace();
        if (peek() == '}') {
            at++;
            return object;
        }
        while (true) {
            skipWhitespace();
            if (peek() != '"') {
                throw error("expected a field name");
            }
            String key = string();
            skipWhitespace();
            expect(':');
            Object value = value(depth);
            if (object.containsKey(key)) {
                // Two values for one field: which one the server meant is unknowable, so refuse both.
                throw error("field '" + key + "' appears twice");
            }
            object.put(key, value);
            skipWhitespace();
            char c = next();
            if (c == '}') {
                return object;
            }
            if (c != ',') {
                at--;
                throw error("expected ',' or '}'");
            }
        }
    }

    private List<Object> array(int depth) {
        if (depth > MAX_DEPTH) {
            throw error("nested too deeply");
        }
        expect('[');
        List<Object> array = new ArrayList<>();
        skipWhitespace();
        if (peek() == ']') {
            at++;
            return array;
        }
        while (true) {
            array.add(value(depth));
            skipWhitespace();
            char c = next();
            if (c == ']') {
                return array;
            }
            if (c != ',') {
                at--;
                throw error("expected ',' or ']'");
            }
        }
    }

    private String string() {
        expect('"');
        StringBuilder out = new StringBuilder();
        while (true) {
            char c = next();
            if (c == '"') {
                return out.toString();
            }
            if (c < 0x20) {
                at--;
                throw error("control character in a string");
            }
            if (c != '\\') {
                out.append(c);
                continue;
            }
            char escaped = next();
            switch (escaped) {
                case '"', '\\', '/' -> out.append(escaped);
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 't' -> out.append('\t');
                case 'u' -> {
                    if (at + 4 > text.length()) {
                        throw error("short \\u escape");
                    }
                    try {
                        out.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
                    } catch (NumberFormatException e) {
                        throw error("bad \\u escape");
                    }
                    at += 4;
                }
                default -> {
                    at--;
                    throw error("bad escape");
                }
            }
        }
    }

    private BigDecimal number() {
        int start = at;
        if (peek() == '-') {
            at++;
        }
        if (!digits()) {
            throw error("expected digits");
        }
        if (text.charAt(start) == '0' && at - start > 1 || text.startsWith("-0", start) && at - start > 2) {
            throw error("leading zero");
        }
        if (at < text.length() && text.charAt(at) == '.') {
            at++;
            if (!digits()) {
                throw error("expected digits after '.'");
            }
        }
        if (at < text.length() && (text.charAt(at) == 'e' || text.charAt(at) == 'E')) {
            at++;
            if (at < text.length() && (text.charAt(at) == '+' || text.charAt(at) == '-')) {
                at++;
            }
            if (!digits()) {
                throw error("expected digits in the exponent");
            }
        }
        return new BigDecimal(text.substring(start, at));
    }

    private boolean digits() {
        int start = at;
        while (at < text.length() && text.charAt(at) >= '0' && text.charAt(at) <= '9') {
            at++;
        }
        return at > start;
    }

    private void skipWhitespace() {
        while (at < text.length()) {
            char c = text.charAt(at);
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                return;
            }
            at++;
        }
    }

    private char peek() {
        return at < text.length() ? text.charAt(at) : '\0';
    }

    private char next() {
        if (at >= text.length()) {
            throw error("unexpected end");
        }
        return text.charAt(at++);
    }

    private void expect(char c) {
        if (peek() != c) {
            throw error("expected '" + c + "'");
        }
        at++;
    }

    private IllegalArgumentException error(String what) {
        return new IllegalArgumentException("not JSON: " + what + " at offset " + at);
    }
}
