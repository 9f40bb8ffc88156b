package dev.idgen.server.http;

import dev.idgen.server.Caller;
import dev.idgen.server.IdgenServerApi;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpHeaders;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * IDs over HTTP, as the sample application serves them: a JSON array of strings (64-bit numbers as decimal strings,
 * which JavaScript cannot hold as numbers; other forms as their canonical text), and what an ID carries.
 */
@RestController
@RequestMapping("/ids")
final class IdsController {

    private final IdgenServerApi api;

    IdsController(IdgenServerApi api) {
        this.api = api;
    }

    /** {@code GET /ids/{name}?count=N&shardKey=K}: the next N (default 1) IDs of the name. */
    @GetMapping("/{name}")
    List<String> next(
            @RequestHeader(name = HttpHeaders.AUTHORIZATION, required = false) String authorization,
            @PathVariable String name,
            @RequestParam(required = false) String count,
            @RequestParam(required = false) String shardKey) {
        Caller caller = api.authenticate(authorization, HttpArguments.HTTP);
        // No default value: Spring would put it in for an empty 'count=' as well, which is a malformed count.
        int n = count == null ? 1 : HttpArguments.wholeNumber("count", count);
        return api.nextIds(caller, name, n, shardKey).texts();
    }

    /** {@code GET /ids/{name}/decode/{id}}: what an ID of the name carries, read by the generator serving it. */
    @GetMapping("/{name}/decode/{id}")
    Map<String, Object> decode(
            @RequestHeader(name = HttpHeaders.AUTHORIZATION, required = false) String authorization,
            @PathVariable String name,
            @PathVariable String id) {
        Caller caller = api.authenticate(authorization, HttpArguments.HTTP);
        return asJson(api.decode(caller, name, id));
    }

    /**
     * {@code GET /ids/decode/{id}}: what an ID of the default generator carries, for any client that may use one of
     * its names.
     */
    @GetMapping("/decode/{id}")
    Map<String, Object> decode(
            @RequestHeader(name = HttpHeaders.AUTHORIZATION, required = false) String authorization,
            @PathVariable String id) {
        Caller caller = api.authenticate(authorization, HttpArguments.HTTP);
        return asJson(api.decodeByDefaultGenerator(caller, id));
    }

    /** Times as ISO-8601 text and the 64-bit {@code id} as a decimal string; the small parts stay numbers. */
    private static Map<String, Object> asJson(Map<String, Object> parts) {
        Map<String, Object> json = new LinkedHashMap<>();
        for (Map.Entry<String, Object> part : parts.entrySet()) {
            Object value = part.getValue();
            if (value instanceof Instant || ("id".equals(part.getKey()) && value instanceof Long)) {
                value = value.toString();
            }
            json.put(part.getKey(), value);
        }
        return json;
    }
}
