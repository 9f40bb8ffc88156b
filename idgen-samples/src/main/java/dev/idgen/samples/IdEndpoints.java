package dev.idgen.samples;

import dev.idgen.core.IdArguments;
import dev.idgen.core.IdService;
import dev.idgen.core.InvalidArgumentException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the ID endpoints of both web stacks ({@link IdController} on Spring MVC, {@link ReactiveIdController} on
 * WebFlux) share, so that both read the same request text the same way and answer the same JSON: the count and id
 * rules with their messages, the JSON shape of decoded parts, and which argument a rejected request target names.
 */
final class IdEndpoints {

    /** The 404's reason when no readable-ID service exists: what to turn on. */
    static final String READABLE_IDS_OFF = "Readable IDs are off: run a redis profile, or set"
            + " idgen.redis.buckets.enabled=true with a Redis (spring.data.redis.*)";

    private IdEndpoints() {}

    /**
     * @param count the {@code count} parameter as sent, or {@code null} when absent
     * @return how many IDs: 1 when absent (an empty {@code count=} is a bad count, not the default)
     */
    static int count(String count) {
        return count == null ? 1 : parseCount(count);
    }

    static int parseCount(String count) {
        try {
            return Integer.parseInt(count);
        } catch (NumberFormatException e) {
            throw new InvalidArgumentException(
                    "count",
                    count,
                    "count must be a whole number between 1 and " + IdService.MAX_BATCH_SIZE + ", but was "
                            + shown(count));
        }
    }

    static long parseId(String id) {
        try {
            return Long.parseLong(id);
        } catch (NumberFormatException e) {
            throw new InvalidArgumentException(
                    "id", id, "id must be a positive 64-bit decimal number, but was " + shown(id));
        }
    }

    /** The value quoted, cut short: a 10,000-digit id need not come back whole in the error. */
    private static String shown(String value) {
        return "'" + (value.length() > 80 ? value.substring(0, 80) + "..." : value) + "'";
    }

    /** Plain 64-bit IDs as JSON strings through {@link IdJson}, the same text as the number form's. */
    static List<IdJson> idsAsJson(long[] issued) {
        List<IdJson> body = new ArrayList<>(issued.length);
        for (long id : issued) {
            body.add(new IdJson(id));
        }
        return body;
    }

    /** Decoded parts as JSON: the 64-bit {@code id} through {@link IdJson} (a string), times as ISO-8601 strings. */
    static Map<String, Object> partsAsJson(Map<String, Object> parts) {
        Map<String, Object> body = new LinkedHashMap<>();
        parts.forEach((key, value) -> body.put(
                key,
                value instanceof Instant
                        ? value.toString()
                        : key.equals("id") && value instanceof Long id ? new IdJson(id) : value));
        return body;
    }

    /** A readable ID's parts as JSON: times as ISO-8601 strings, the rest as they are. */
    static Map<String, Object> readablePartsAsJson(Map<String, Object> parts) {
        Map<String, Object> body = new LinkedHashMap<>();
        parts.forEach((key, value) -> body.put(key, value instanceof Instant ? value.toString() : value));
        return body;
    }

    /**
     * The argument a request target names wrongly, when the server turned the request down before a controller saw
     * it (a NUL, an encoded slash, a broken escape, a target too long): the same rule and message as if the value had
     * arrived at the controller, so a client learns which parameter to fix.
     *
     * @param rawPath the request path as sent, still percent-encoded, without the query
     * @return the broken rule naming its parameter, or {@code null} when no path parameter of ours is at fault
     */
    static InvalidArgumentException pathArgumentAtFault(String rawPath) {
        if (rawPath == null || !rawPath.startsWith("/ids/")) {
            return null;
        }
        String rest = rawPath.substring("/ids/".length());
        try {
            if (rest.startsWith("decode/")) {
                String id = rest.substring("decode/".length());
                if (id.indexOf('/') < 0) {
                    IdArguments.checkId(parseId(percentDecoded(id)));
                }
            } else if (rest.indexOf('/') < 0) {
                IdArguments.checkName(percentDecoded(rest));
            } else if (rest.indexOf("/decode/") > 0 && !rest.startsWith("readable/")) {
                int decode = rest.indexOf("/decode/");
                IdArguments.checkName(percentDecoded(rest.substring(0, decode)));
                String id = rest.substring(decode + "/decode/".length());
                if (id.indexOf('/') < 0) {
                    IdArguments.checkId(parseId(percentDecoded(id)));
                }
            }
        } catch (InvalidArgumentException e) {
            return e;
        }
        return null;
    }

    /** Decodes {@code %XX} escapes as UTF-8; a broken escape stays as sent, which no rule accepts. */
    private static String percentDecoded(String raw) {
        try {
            return URLDecoder.decode(raw.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return raw;
        }
    }
}
