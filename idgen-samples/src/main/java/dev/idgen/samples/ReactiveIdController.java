package dev.idgen.samples;

import dev.idgen.core.IdArguments;
import dev.idgen.core.form.IdForm;
import dev.idgen.core.form.IdForms;
import dev.idgen.spring.reactive.BoundedBlockingExecutor;
import dev.idgen.spring.reactive.ReactiveIdService;
import dev.idgen.spring.reactive.ReactiveReadableIdService;
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
import reactor.core.publisher.Mono;

/**
 * The endpoints of {@link IdController}, with the same arguments and the same JSON, on WebFlux (the {@code reactive}
 * profile): 64-bit IDs through {@link ReactiveIdService}, readable IDs through {@link ReactiveReadableIdService}, so
 * that no request holds an event-loop thread while a store answers. Decoding only computes, so it runs in place.
 */
@RestController
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
@RequestMapping("/ids")
class ReactiveIdController {

    private final ReactiveIdService ids;

    private final IdForms forms;

    private final ObjectProvider<ReactiveReadableIdService> readableIds;

    private final BoundedBlockingExecutor blocking;

    ReactiveIdController(
            ReactiveIdService ids,
            IdForms forms,
            ObjectProvider<ReactiveReadableIdService> readableIds,
            BoundedBlockingExecutor blocking) {
        this.ids = ids;
        this.forms = forms;
        this.readableIds = readableIds;
        this.blocking = blocking;
    }

    /** {@code GET /ids/readable?biz=ORD}: as {@link IdController}'s, emitted when Redis answers. */
    @GetMapping("/readable")
    Mono<List<String>> readable(@RequestParam(defaultValue = "") String biz) {
        return readableIds().nextReadableId(biz).map(List::of);
    }

    /** {@code GET /ids/readable/decode/{id}}: the time, business code, bucket and sequence of a readable ID. */
    @GetMapping("/readable/decode/{id}")
    Map<String, Object> decodeReadable(@PathVariable String id) {
        return IdEndpoints.readablePartsAsJson(
                readableIds().blocking().decodeReadable(id).toMap());
    }

    private ReactiveReadableIdService readableIds() {
        ReactiveReadableIdService service = readableIds.getIfAvailable();
        if (service == null) {
            throw new ResponseStatusException(HttpStatus.NOT_FOUND, IdEndpoints.READABLE_IDS_OFF);
        }
        return service;
    }

    /**
     * {@code GET /ids/{name}?count=N[&shardKey=K]}: as {@link IdController}'s. Plain 64-bit IDs come from
     * {@link ReactiveIdService#nextIds}; IDs of another form, or routed by a shard key, come from the form, whose
     * {@code next} blocks when the form draws on a store (tickets, segments): it runs on the starter's bounded
     * executor for blocking calls ({@code idgen.reactive.blocking-*}), beside idgen's own, never on the event loop.
     */
    @GetMapping("/{name}")
    Mono<List<?>> next(
            @PathVariable String name,
            @RequestParam(required = false) String count,
            @RequestParam(required = false) String shardKey) {
        // No defaultValue: Spring would put it in for an empty count= too, and answer one ID to a malformed request.
        int n = IdEndpoints.count(count);
        IdForm form = forms.form(name);
        if (shardKey == null && form.form().equals("number")) {
            return ids.nextIds(name, IdArguments.checkCount(n)).map(IdEndpoints::idsAsJson);
        }
        return Mono.<List<?>>fromCallable(() -> List.of(shardKey == null ? form.next(n) : form.next(n, shardKey)))
                .subscribeOn(blocking.scheduler());
    }

    /** {@code GET /ids/decode/{id}}: what the ID carries, for Snowflake its timestamp, worker id and sequence. */
    @GetMapping("/decode/{id}")
    Map<String, Object> decode(@PathVariable String id) {
        return IdEndpoints.partsAsJson(
                ids.blocking().decode(IdEndpoints.parseId(id)).toMap());
    }

    /** {@code GET /ids/{name}/decode/{id}}: what an ID of the named sequence carries, as {@link IdController}'s. */
    @GetMapping("/{name}/decode/{id}")
    Map<String, Object> decode(@PathVariable String name, @PathVariable String id) {
        IdForm form = forms.form(name);
        if (form.form().equals("number")) {
            return IdEndpoints.partsAsJson(
                    ids.blocking().decode(name, IdEndpoints.parseId(id)).toMap());
        }
        return IdEndpoints.partsAsJson(form.decode(id));
    }
}
