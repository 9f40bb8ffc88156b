package dev.idgen.samples;

import dev.idgen.core.IdArguments;
import dev.idgen.core.IdService;
import dev.idgen.core.ReadableIdService;
import dev.idgen.core.form.IdForm;
import dev.idgen.core.form.IdForms;
import java.util.List;
import java.util.Map;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * IDs over HTTP. IDs travel as decimal strings because JavaScript's numbers cannot hold every 64-bit long: the
 * 64-bit ones as {@link IdJson}, which the starter's {@code @IdgenId} JSON support writes as strings. This is the
 * Spring MVC face, with blocking calls on Tomcat's request threads; {@link ReactiveIdController} serves the same
 * endpoints on WebFlux (the {@code reactive} profile).
 */
@RestController
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
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
        return IdEndpoints.readablePartsAsJson(readableIds().decodeReadable(id).toMap());
    }

    private ReadableIdService readableIds() {
        ReadableIdService service = readableIds.getIfAvailable();
        if (service == null) {
            throw new ResponseStatusException(HttpStatus.NOT_FOUND, IdEndpoints.READABLE_IDS_OFF);
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
        int n = IdEndpoints.count(count);
        IdForm form = forms.form(name);
        if (shardKey == null && form.form().equals("number")) {
            // Plain 64-bit IDs: JSON strings by @IdgenId, the same text as the number form's.
            return IdEndpoints.idsAsJson(ids.nextIds(name, IdArguments.checkCount(n)));
        }
        return List.of(shardKey == null ? form.next(n) : form.next(n, shardKey));
    }

    /**
     * {@code GET /ids/decode/{id}}: what the ID carries, for Snowflake its timestamp, worker id and sequence.
     */
    @GetMapping("/decode/{id}")
    Map<String, Object> decode(@PathVariable String id) {
        return IdEndpoints.partsAsJson(ids.decode(IdEndpoints.parseId(id)).toMap());
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
            return IdEndpoints.partsAsJson(
                    ids.decode(name, IdEndpoints.parseId(id)).toMap());
        }
        // The form's own string: a UUID, an ObjectId, a public ID. What it carries, with its internal ID (a public
        // ID's) as a string as every ID here is.
        return IdEndpoints.partsAsJson(form.decode(id));
    }
}
