package dev.idgen.server.http;

import dev.idgen.core.segment.Segment;
import dev.idgen.server.Caller;
import dev.idgen.server.IdgenServerApi.IssuedIds;
import dev.idgen.server.IdgenServerConfiguration;
import dev.idgen.server.IdgenServerProperties;
import dev.idgen.server.IdgenServerService;
import dev.idgen.server.ServerRefusal;
import dev.idgen.server.access.TinyidTokens;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.json.JsonMapper;

/**
 * Didi Tinyid's HTTP API, so that its callers (its own Java client among them) switch to this server by changing a
 * host name: the same paths, parameters and bodies, HTTP 200 with Tinyid's codes on failure. The {@code token}
 * parameter is the caller's bearer token, looked up among idgen.server.clients as the Authorization header is. A
 * segment is a block from the name's segment store, as {@code POST /blocks} takes one: never handed out twice.
 * GET and POST are served (Tinyid's client posts an empty body); HEAD answers without using up an ID.
 */
@RestController
@RequestMapping("/tinyid/id")
@ConditionalOnProperty(name = "idgen.server.compat.tinyid.enabled", havingValue = "true")
final class TinyidController {

    /** Tinyid's own token table, when idgen.server.compat.tinyid.token-table names it. */
    private final TinyidTokens tableTokens;

    /** Tinyid's code and message for a token that is wrong, missing, or not the biz type's. */
    static final int TOKEN_ERROR = 5;

    /** Tinyid's code for any other failure, with the reason as the message. */
    static final int SYSTEM_ERROR = 6;

    private static final String TOKEN_IS_ERROR = "token is error";

    /** Tinyid starts loading the next segment once an ID reaches this percentage of the current one. */
    private static final int LOADING_PERCENT = 20;

    private static final MediaType TEXT = MediaType.parseMediaType("text/plain;charset=UTF-8");

    private static final MediaType JSON = MediaType.parseMediaType("application/json;charset=UTF-8");

    private static final JsonMapper JSON_MAPPER = JsonMapper.builder().build();

    private final IdgenServerService service;

    private final int maxCount;

    private final long segmentSize;

    /**
     * @throws dev.idgen.spring.boot.autoconfigure.diagnostics.IdgenPropertyValueException naming
     *     idgen.server.compat.tinyid.segment-size when it lies outside 1 to idgen.server.max-block-size
     */
    TinyidController(
            IdgenServerService service, IdgenServerProperties properties, ObjectProvider<TinyidTokens> tableTokens) {
        this.service = service;
        this.tableTokens = tableTokens.getIfAvailable();
        this.maxCount = properties.getMaxCount();
        this.segmentSize = IdgenServerConfiguration.inRange(
                "idgen.server.compat.tinyid.segment-size",
                properties.getCompat().getTinyid().getSegmentSize(),
                1,
                properties.getMaxBlockSize());
    }

    /** {@code /tinyid/id/nextId?bizType=&token=&batchSize=}: {@code {"data":[ids],"code":200,"message":""}}. */
    @RequestMapping(
            path = "/nextId",
            method = {RequestMethod.GET, RequestMethod.POST})
    ResponseEntity<String> nextId(
            @RequestParam(required = false) String bizType,
            @RequestParam(required = false) String token,
            @RequestParam(required = false) String batchSize) {
        Answer answer = ids(bizType, token, batchSize);
        Object data =
                answer.ids == null ? null : answer.ids.numbers() != null ? answer.ids.numbers() : answer.ids.texts();
        return json(answer.code == 200 ? data : null, answer.code, answer.message);
    }

    /** {@code /tinyid/id/nextIdSimple}: the IDs joined by commas; an empty body on any failure. */
    @RequestMapping(
            path = "/nextIdSimple",
            method = {RequestMethod.GET, RequestMethod.POST})
    ResponseEntity<String> nextIdSimple(
            @RequestParam(required = false) String bizType,
            @RequestParam(required = false) String token,
            @RequestParam(required = false) String batchSize) {
        Answer answer = ids(bizType, token, batchSize);
        return text(answer.code == 200 && answer.ids != null ? String.join(",", answer.ids.texts()) : "");
    }

    /** {@code /tinyid/id/nextSegmentId}: {@code {"data":{"maxId":..,"loadingId":..,"currentId":..,...},...}}. */
    @RequestMapping(
            path = "/nextSegmentId",
            method = {RequestMethod.GET, RequestMethod.POST})
    ResponseEntity<String> nextSegmentId(
            @RequestParam(required = false) String bizType, @RequestParam(required = false) String token) {
        Answer answer = segment(bizType, token);
        if (answer.code != 200) {
            return json(null, answer.code, answer.message);
        }
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("maxId", answer.segment.maxId());
        data.put("loadingId", answer.segment.loadingId());
        data.put("currentId", answer.segment.currentId());
        data.put("delta", 1);
        data.put("remainder", 0);
        return json(data, 200, "");
    }

    /**
     * {@code /tinyid/id/nextSegmentIdSimple}: {@code currentId,loadingId,maxId,delta,remainder}, what Tinyid's client
     * reads; an empty body on any failure.
     */
    @RequestMapping(
            path = "/nextSegmentIdSimple",
            method = {RequestMethod.GET, RequestMethod.POST})
    ResponseEntity<String> nextSegmentIdSimple(
            @RequestParam(required = false) String bizType, @RequestParam(required = false) String token) {
        Answer answer = segment(bizType, token);
        if (answer.code != 200) {
            return text("");
        }
        TinyidSegment s = answer.segment;
        return text(s.currentId() + "," + s.loadingId() + "," + s.maxId() + ",1,0");
    }

    /** HEAD on any of the four answers 200 without a body, and uses up no ID (Tinyid issued one and dropped it). */
    @RequestMapping(
            path = {"/nextId", "/nextIdSimple", "/nextSegmentId", "/nextSegmentIdSimple"},
            method = RequestMethod.HEAD)
    ResponseEntity<Void> head() {
        return ResponseEntity.ok().build();
    }

    private Answer ids(String bizType, String token, String batchSize) {
        // A malformed batchSize is refused before anything else, as Tinyid's binding does (400).
        int count = batchSize == null ? 1 : HttpArguments.wholeNumber("batchSize", batchSize);
        Caller caller = caller(bizType, token);
        if (caller == null) {
            return Answer.TOKEN;
        }
        if (count <= 0) {
            // Tinyid answers no IDs, once the token may use the biz type.
            return service.allows(caller, bizType)
                    ? new Answer(200, "", new IssuedIds(List.of(), new long[0]), null)
                    : Answer.TOKEN;
        }
        try {
            return new Answer(200, "", service.nextIds(caller, bizType, Math.min(count, maxCount), null), null);
        } catch (ServerRefusal refusal) {
            return failed(refusal);
        }
    }

    private Answer segment(String bizType, String token) {
        Caller caller = caller(bizType, token);
        if (caller == null) {
            return Answer.TOKEN;
        }
        try {
            Segment block = service.takeBlock(caller, bizType, segmentSize, 0);
            // Tinyid's segment is (currentId, maxId] by delta 1: the block's IDs exactly.
            long current = block.first() - 1;
            TinyidSegment segment =
                    new TinyidSegment(current, current + block.size() * LOADING_PERCENT / 100, block.last());
            return new Answer(200, "", null, segment);
        } catch (ServerRefusal refusal) {
            return failed(refusal);
        }
    }

    /** @return the client the token belongs to, or {@code null} (Tinyid's "token is error") */
    private Caller caller(String bizType, String token) {
        if (bizType == null || bizType.isEmpty() || token == null || token.isBlank()) {
            return null;
        }
        try {
            return service.authenticate("Bearer " + token, HttpArguments.HTTP);
        } catch (ServerRefusal refusal) {
            // Not an idgen client's: one of Tinyid's own table, when it is read, for the biz types it lists.
            return tableTokens == null ? null : tableTokens.caller(token, bizType);
        }
    }

    /**
     * A name the client may not use is Tinyid's code 5; a rate limit keeps idgen's 429 with Retry-After; anything
     * else is code 6 with the reason.
     */
    private static Answer failed(ServerRefusal refusal) {
        return switch (refusal.reason()) {
            case FORBIDDEN, UNAUTHENTICATED -> Answer.TOKEN;
            case RATE_LIMITED, TOO_MANY_NAMES -> throw refusal;
            default -> new Answer(SYSTEM_ERROR, refusal.getMessage(), null, null);
        };
    }

    private static ResponseEntity<String> json(Object data, int code, String message) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("data", data);
        json.put("code", code);
        json.put("message", message);
        return ResponseEntity.ok().contentType(JSON).body(JSON_MAPPER.writeValueAsString(json));
    }

    private static ResponseEntity<String> text(String body) {
        return ResponseEntity.ok().contentType(TEXT).body(body);
    }

    /** Tinyid's segment: IDs in (currentId, maxId], the next one loaded from loadingId. */
    private record TinyidSegment(long currentId, long loadingId, long maxId) {}

    /** One request's outcome: code 200 with IDs or a segment, or Tinyid's failure code and message. */
    private record Answer(int code, String message, IssuedIds ids, TinyidSegment segment) {

        static final Answer TOKEN = new Answer(TOKEN_ERROR, TOKEN_IS_ERROR, null, null);
    }
}
