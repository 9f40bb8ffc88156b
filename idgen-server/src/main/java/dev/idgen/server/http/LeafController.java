package dev.idgen.server.http;

import dev.idgen.core.IdService;
import dev.idgen.core.RoutingIdService;
import dev.idgen.core.form.IdForms;
import dev.idgen.core.snowflake.SnowflakeDecodedId;
import dev.idgen.server.Caller;
import dev.idgen.server.IdgenServerApi;
import dev.idgen.server.IdgenServerApi.IssuedIds;
import dev.idgen.server.IdgenServerProperties;
import dev.idgen.server.ServerRefusal;
import dev.idgen.server.ServerRefusal.Reason;
import dev.idgen.server.access.ServerClients;
import dev.idgen.spring.boot.autoconfigure.diagnostics.IdgenPropertyValueException;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.json.JsonMapper;

/**
 * Meituan Leaf 1.0.1's HTTP API, so that its callers switch to this server by changing a host name: the same paths,
 * the same bare decimal on success, the same HTTP 500 with {@code Result{id=-N, status=EXCEPTION}} on failure. Every
 * ID goes through {@link IdgenServerApi} as {@code /ids} does, so the caller's rights, rate limit, meters and the
 * request timeout apply. Where Leaf answered by accident (HEAD used up an ID, a key was cut at its last dot, every
 * method issued IDs) this server does not: docs/server.md lists each difference.
 */
@RestController
@ConditionalOnProperty(name = "idgen.server.compat.leaf.enabled", havingValue = "true")
final class LeafController {

    /** Leaf's answer for a key it does not serve (SegmentIDGenImpl's "key not in cache"). */
    static final String UNKNOWN_KEY = "Result{id=-2, status=EXCEPTION}";

    /** Leaf's answer when its store cannot give a segment ("both segments not ready"). */
    static final String UNAVAILABLE = "Result{id=-3, status=EXCEPTION}";

    /** Leaf's answer for an ID it cannot decode, byte for byte. */
    static final String CANNOT_DECODE = "snowflake Id反解析发生异常!";

    private static final MediaType TEXT = MediaType.parseMediaType("text/plain;charset=UTF-8");

    private static final MediaType JSON = MediaType.parseMediaType("application/json;charset=UTF-8");

    private static final JsonMapper JSON_MAPPER = JsonMapper.builder().build();

    /** Leaf formats the time an ID carries in its server's zone; so does this server. */
    private static final DateTimeFormatter LEAF_TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS").withZone(ZoneId.systemDefault());

    private static final String GENERATOR = "idgen.server.compat.leaf.snowflake-generator";

    private final IdgenServerApi api;

    private final ServerClients clients;

    /** The name Snowflake requests are issued, authorized and counted as, or {@code null} when that path is off. */
    private final String snowflakeName;

    /**
     * @throws IdgenPropertyValueException naming idgen.server.compat.leaf.snowflake-generator when the Snowflake path
     *     is on and the setting names no Snowflake generator of plain numbers
     */
    LeafController(
            IdgenServerApi api, ServerClients clients, IdgenServerProperties properties, IdService ids, IdForms forms) {
        this.api = api;
        this.clients = clients;
        IdgenServerProperties.Leaf leaf = properties.getCompat().getLeaf();
        this.snowflakeName =
                leaf.isSnowflakeEnabled() ? snowflakeGenerator(leaf.getSnowflakeGenerator(), ids, forms) : null;
    }

    /** @return the generator's name, which is also the name its IDs are issued as */
    private static String snowflakeGenerator(String generator, IdService ids, IdForms forms) {
        Map<String, IdService> generators = RoutingIdService.generatorsOf(ids);
        String off = "or set idgen.server.compat.leaf.snowflake-enabled=false to leave /api/snowflake/get off.";
        if (generator == null || generator.isBlank()) {
            throw new IdgenPropertyValueException(
                    GENERATOR,
                    "(none)",
                    "is required while Leaf's API and its Snowflake path are on",
                    "Name the Snowflake generator behind /api/snowflake/get/{key}: one of " + generators.keySet() + ", "
                            + off);
        }
        IdService serving = generators.get(generator);
        if (serving == null || !SnowflakeDecodedId.STRATEGY.equals(serving.strategy())) {
            throw new IdgenPropertyValueException(
                    GENERATOR,
                    generator,
                    serving == null
                            ? "no generator is called '" + generator + "'"
                            : "the generator '" + generator + "' has the strategy '" + serving.strategy()
                                    + "', not snowflake",
                    "Name a generator with idgen.generators.<name>.strategy=snowflake (or 'default' when the default"
                            + " generator is Snowflake), " + off);
        }
        if (!forms.form(generator).form().equals("number")) {
            throw new IdgenPropertyValueException(
                    GENERATOR,
                    generator,
                    "the IDs of '" + generator + "' have the form '"
                            + forms.form(generator).form() + "', and Leaf's callers read a decimal number",
                    "Name a Snowflake generator whose IDs are plain numbers, " + off);
        }
        return generator;
    }

    /** {@code GET /api/segment/get/{key}}: one ID of the name {@code key}, the whole key, dots and all. */
    @GetMapping("/api/segment/get/{key}")
    ResponseEntity<String> segment(
            @RequestHeader(name = HttpHeaders.AUTHORIZATION, required = false) String authorization,
            @PathVariable String key,
            HttpServletRequest request) {
        return issue(caller(authorization), key, request);
    }

    /**
     * {@code GET /api/snowflake/get/{key}}: one ID of the Snowflake generator; as in Leaf, the key is ignored, and the
     * request counts as one for the name equal to the generator's name.
     */
    @GetMapping("/api/snowflake/get/{key}")
    ResponseEntity<String> snowflake(
            @RequestHeader(name = HttpHeaders.AUTHORIZATION, required = false) String authorization,
            @PathVariable String key,
            HttpServletRequest request) {
        if (snowflakeName == null) {
            throw snowflakeOff();
        }
        return issue(caller(authorization), snowflakeName, request);
    }

    /** HEAD answers as GET would be answered, without the body, and uses up no ID (Leaf issued one and dropped it). */
    @RequestMapping(
            path = {"/api/segment/get/{key}", "/api/snowflake/get/{key}"},
            method = RequestMethod.HEAD)
    ResponseEntity<Void> head() {
        return ResponseEntity.ok().contentType(TEXT).build();
    }

    /**
     * {@code GET /decodeSnowflakeId?snowflakeId=}: what a Snowflake ID carries, as Leaf writes it, read by the
     * Snowflake generator's own layout; an ID it cannot read answers Leaf's {@code errorMsg} with status 200.
     */
    @GetMapping("/decodeSnowflakeId")
    ResponseEntity<String> decode(
            @RequestHeader(name = HttpHeaders.AUTHORIZATION, required = false) String authorization,
            @RequestParam String snowflakeId) {
        if (snowflakeName == null) {
            throw snowflakeOff();
        }
        Caller caller = caller(authorization);
        Map<String, Object> json = new LinkedHashMap<>();
        try {
            Map<String, Object> parts = api.decode(caller, snowflakeName, snowflakeId);
            Instant time = (Instant) parts.get("timestamp");
            // Leaf's order and Leaf's strings, every value one.
            json.put("workerId", String.valueOf(parts.get("workerId")));
            json.put("sequenceId", String.valueOf(parts.get("sequence")));
            json.put("timestamp", time.toEpochMilli() + "(" + LEAF_TIME.format(time) + ")");
        } catch (ServerRefusal refusal) {
            if (refusal.reason() != Reason.BAD_ARGUMENT
                    && refusal.reason() != Reason.FORBIDDEN
                    && refusal.reason() != Reason.NOT_FOUND) {
                throw refusal;
            }
            // A name the caller may not decode answers as an unreadable ID does: nothing told about the name.
            json.put("errorMsg", CANNOT_DECODE);
        }
        return ResponseEntity.ok().contentType(JSON).body(JSON_MAPPER.writeValueAsString(json));
    }

    /**
     * The caller: by its bearer token, or the client {@value Caller#LEAF_TOKENLESS} for a request without one when
     * the operator listed names for it.
     */
    private Caller caller(String authorization) {
        Caller tokenless = clients.leafTokenless();
        if (tokenless != null && (authorization == null || authorization.isBlank())) {
            return tokenless;
        }
        return api.authenticate(authorization, HttpArguments.HTTP);
    }

    private ResponseEntity<String> issue(Caller caller, String name, HttpServletRequest request) {
        IssuedIds issued;
        try {
            issued = api.nextIds(caller, name, 1, null);
        } catch (ServerRefusal refusal) {
            return failed(refusal, request);
        }
        String id = issued.numbers() != null
                ? Long.toString(issued.numbers()[0])
                : issued.texts().get(0);
        return ResponseEntity.ok().contentType(TEXT).body(id);
    }

    /**
     * Leaf's failure: 500 and Spring Boot's error JSON with Leaf's {@code Result{...}} as the message; id -2 for a key
     * not served (not the caller's, or not a name), -3 when the store cannot answer. A rate limit or a missing token
     * keeps idgen's own answer (429 with Retry-After, 401), which tells the caller what to do.
     */
    private static ResponseEntity<String> failed(ServerRefusal refusal, HttpServletRequest request) {
        String message = switch (refusal.reason()) {
            case BAD_ARGUMENT, FORBIDDEN, NOT_FOUND -> UNKNOWN_KEY;
            case UNAVAILABLE, OVERLOADED -> UNAVAILABLE;
            default -> throw refusal;
        };
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("timestamp", System.currentTimeMillis());
        json.put("status", HttpStatus.INTERNAL_SERVER_ERROR.value());
        json.put("error", HttpStatus.INTERNAL_SERVER_ERROR.getReasonPhrase());
        json.put("message", message);
        json.put("path", request.getRequestURI());
        ResponseEntity.BodyBuilder answer =
                ResponseEntity.status(HttpStatus.INTERNAL_SERVER_ERROR).contentType(JSON);
        if (refusal.retryAfter() != null) {
            answer.header(
                    HttpHeaders.RETRY_AFTER,
                    Long.toString(Math.max(
                            1, refusal.retryAfter().plusNanos(999_999_999).toSeconds())));
        }
        return answer.body(JSON_MAPPER.writeValueAsString(json));
    }

    private static ServerRefusal snowflakeOff() {
        return new ServerRefusal(
                Reason.NOT_FOUND,
                null,
                null,
                "Leaf's Snowflake path is off on this server (idgen.server.compat.leaf.snowflake-enabled=false)");
    }
}
