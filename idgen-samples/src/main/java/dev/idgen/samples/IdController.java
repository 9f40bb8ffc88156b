package dev.idgen.samples;

import dev.idgen.core.IdService;
import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.ReadableIdService;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.HttpStatus;
import org.springframework.web.server.ResponseStatusException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * IDs over HTTP. IDs travel as decimal strings because JavaScript's numbers cannot hold every 64-bit long.
 */
@RestController
@RequestMapping("/ids")
class IdController {

    private final IdService ids;

    private final ObjectProvider<ReadableIdService> readableIds;

    IdController(IdService ids, ObjectProvider<ReadableIdService> readableIds) {
        this.ids = ids;
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
        readableIds().decodeReadable(id).toMap().forEach((key, value) -> body.put(key,
                value instanceof Instant ? value.toString() : value));
        return body;
    }

    private ReadableIdService readableIds() {
        ReadableIdService service = readableIds.getIfAvailable();
        if (service == null) {
            throw new ResponseStatusException(HttpStatus.NOT_FOUND, "Readable IDs are off: run a redis profile, or set"
                    + " idgen.redis.buckets.enabled=true with a Redis (spring.data.redis.*)");
        }
        return service;
    }

    /**
     * {@code GET /ids/{name}?count=N}: the next N IDs of the named sequence (N defaults to 1).
     */
    @GetMapping("/{name}")
    List<String> next(@PathVariable String name, @RequestParam(defaultValue = "1") String count) {
        long[] batch = ids.nextIds(name, parseCount(count));
        List<String> body = new ArrayList<>(batch.length);
        for (long id : batch) {
            body.add(Long.toString(id));
        }
        return body;
    }

    /**
     * {@code GET /ids/decode/{id}}: what the ID carries, for Snowflake its timestamp, worker id and sequence.
     */
    @GetMapping("/decode/{id}")
    Map<String, Object> decode(@PathVariable String id) {
        Map<String, Object> body = new LinkedHashMap<>();
        ids.decode(parseId(id)).toMap().forEach((key, value) -> body.put(key,
                value instanceof Instant || key.equals("id") ? value.toString() : value));
        return body;
    }

    private static int parseCount(String count) {
        try {
            return Integer.parseInt(count.trim());
        } catch (NumberFormatException e) {
            throw new InvalidArgumentException("count", count, "count must be a whole number between 1 and "
                    + IdService.MAX_BATCH_SIZE + ", but was '" + count + "'");
        }
    }

    private static long parseId(String id) {
        try {
            return Long.parseLong(id.trim());
        } catch (NumberFormatException e) {
            throw new InvalidArgumentException("id", id,
                    "id must be a positive 64-bit decimal number, but was '" + id + "'");
        }
    }
}
