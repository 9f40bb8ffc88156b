package dev.idgen.samples;

import dev.idgen.core.IdArguments;
import dev.idgen.core.IdService;
import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.ReadableIdService;
import dev.idgen.core.form.IdForm;
import dev.idgen.core.form.IdForms;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * IDs over HTTP. IDs travel as decimal strings because JavaScript's numbers cannot hold every 64-bit long: the
 * 64-bit ones as {@link IdJson}, which the starter's {@code @IdgenId} JSON support writes as strings.
 */
@RestController
@RequestMapping("/ids")
class IdController {

    private final IdService ids;

    private final IdForms forms;

    private final ObjectProvider<ReadableIdService> readableIds;

    IdController(IdService ids, IdForms forms, ObjectProvider<ReadableIdService> readableIds) {
        this.ids = ids;
        this.forms = forms;
        this.readableIds = readableIds;
    }

    /**
     * {@code GET /ids/readable?biz=ORD}: a readable ID (time, business code, bucket, sequence) from the bucketed Redis
     * sequences, when idgen.redis.buckets.enabled=true (the redis profiles).
     */
    @GetMapping("/readable")
    List<String> readable(@RequestParam(defaultValue = "") String biz) {
        return List.of(readableIds().nextReadableId(biz));
    }

    /**
     * {@code GET /ids/readable/decode/{id}}: the time, business code, bucket and sequence of a readable ID.
     */
    @GetMapping("/readable/decode/{id}")
    Map<String, Object> decodeReadable(@PathVariable String id) {
        Map<String, Object> body = new LinkedHashMap<>();
        readableIds()
                .decodeReadable(id)
                .toMap()
                .forEach((key, value) -> body.put(key, value instanceof Instant ? value.toString() : value));
        return body;
    }

    private ReadableIdService readableIds() {
        ReadableIdService service = readableIds.getIfAvailable();
        if (service == null) {
            throw new ResponseStatusException(
                    HttpStatus.NOT_FOUND,
                    "Readable IDs are off: run a redis profile, or set"
                            + " idgen.redis.buckets.enabled=true with a Redis (spring.data.redis.*)");
        }
        return service;
    }

    /**
     * {@code GET /ids/{name}?count=N[&shardKey=K]}: the next N IDs of the named sequence as the canonical strings of
     * its generator's form (decimal numbers unless the generator has another form), N defaulting to 1 when
     * {@code count} is absent (an empty {@code count=} is a bad count, not the default). {@code shardKey} is for
     * shard-aware generators: the IDs then route with the key.
     */
    @GetMapping("/{name}")
    List<?> next(
            @PathVariable String name,
            @RequestParam(required = false) String count,
            @RequestParam(required = false) String shardKey) {
        // No defaultValue: Spring would put it in for an empty count= too, and answer one ID to a malformed request.
        int n = count == null ? 1 : parseCount(count);
        IdForm form = forms.form(name);
        if (shardKey == null && form.form().equals("number")) {
            // Plain 64-bit IDs: JSON strings by @IdgenId, the same text as the number form's.
            long[] issued = ids.nextIds(name, IdArguments.checkCount(n));
            List<IdJson> body = new ArrayList<>(issued.length);
            for (long id : issued) {
                body.add(new IdJson(id));
            }
            return body;
        }
        return List.of(shardKey == null ? form.next(n) : form.next(n, shardKey));
    }

    /**
     * {@code GET /ids/decode/{id}}: what the ID carries, for Snowflake its timestamp, worker id and sequence.
     */
    @GetMapping("/decode/{id}")
    Map<String, Object> decode(@PathVariable String id) {
        return body(ids.decode(parseId(id)).toMap());
    }

    /**
     * {@code GET /ids/{name}/decode/{id}}: what an ID of the named sequence carries, read by the generator serving
     * the name, with the generator's name: with several generators ({@code idgen.generators.*}) only the name tells
     * which generator issued an ID.
     */
    @GetMapping("/{name}/decode/{id}")
    Map<String, Object> decode(@PathVariable String name, @PathVariable String id) {
        IdForm form = forms.form(name);
        if (form.form().equals("number")) {
            return body(ids.decode(name, parseId(id)).toMap());
        }
        // The form's own string: a UUID, an ObjectId, a public ID. What it carries, with its internal ID (a public
        // ID's) as a string as every ID here is.
        return body(form.decode(id));
    }

    /** The parts as JSON: the 64-bit {@code id} through {@link IdJson} (a string), times as ISO-8601 strings. */
    private static Map<String, Object> body(Map<String, Object> parts) {
        Map<String, Object> body = new LinkedHashMap<>();
        parts.forEach((key, value) -> body.put(
                key,
                value instanceof Instant
                        ? value.toString()
                        : key.equals("id") && value instanceof Long id ? new IdJson(id) : value));
        return body;
    }

    /**
     * The argument a request target names wrongly, when the server turned the request down before this controller
     * saw it (a NUL, an encoded slash, a broken escape, a target too long): the same rule and message as if the value
     * had arrived here, so a client learns which parameter to fix.
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

    private static int parseCount(String count) {
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
}
