package dev.idgen.samples;

import dev.idgen.core.IdArguments;
import java.net.URI;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Profile;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.util.UriComponentsBuilder;
import reactor.core.publisher.Mono;

/**
 * {@link OrderController}'s requests and answers on WebFlux (the {@code r2dbc} profile), with the orders kept through
 * Spring Data R2DBC, whose calls never block, so no event-loop thread waits on the database. The ID comes from
 * {@code @IdgenId} through the starter's reactive {@code BeforeConvertCallback}. Only in that profile: elsewhere R2DBC
 * is switched off and there is no repository for it.
 */
@RestController
@Profile("r2dbc")
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
@RequestMapping("/orders")
class R2dbcOrderController {

    private final R2dbcOrderRepository orders;

    R2dbcOrderController(R2dbcOrderRepository orders) {
        this.orders = orders;
    }

    /**
     * {@code POST /orders} with {@code {"customer": "...", "amount": 12.5}}: 201 with the order and its
     * {@code Location}.
     */
    @PostMapping
    Mono<ResponseEntity<R2dbcOrder>> create(@RequestBody OrderRequest request, ServerHttpRequest http) {
        R2dbcOrder order = request.toR2dbcOrder();
        return orders.save(order)
                .map(saved ->
                        ResponseEntity.created(location(http, saved.getId())).body(saved));
    }

    /** {@code GET /orders/{id}}: the order, or 404 when there is none with that ID. */
    @GetMapping("/{id}")
    Mono<R2dbcOrder> read(@PathVariable String id) {
        long orderId = IdArguments.checkId(IdEndpoints.parseId(id));
        return orders.findById(orderId)
                .switchIfEmpty(Mono.error(
                        () -> new ResponseStatusException(HttpStatus.NOT_FOUND, "No order has id " + orderId)));
    }

    /** The new order's address, as Spring MVC's {@code ServletUriComponentsBuilder} gives it on the other stack. */
    private static URI location(ServerHttpRequest http, long id) {
        return UriComponentsBuilder.fromUri(http.getURI())
                .replacePath(http.getPath().contextPath().value() + "/orders/{id}")
                .replaceQuery(null)
                .buildAndExpand(id)
                .toUri();
    }
}
