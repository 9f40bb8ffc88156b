package dev.idgen.samples;

import dev.idgen.core.IdArguments;
import java.net.URI;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;

/**
 * Orders, a small application on idgen: each new {@link Order} takes its ID from idgen's {@code orders} sequence
 * through {@code @IdgenId}, and the ID travels as a JSON string. Bad input is a 400 problem+json whose
 * {@code parameter} names the field or path variable (the starter's {@code IdgenProblemHandler};
 * {@link IdProblemHandler} for a body that cannot be read). Spring MVC only: its JPA repository blocks, which a WebFlux
 * event loop must never do, so the {@code reactive} profile serves no orders.
 */
@RestController
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@RequestMapping("/orders")
class OrderController {

    private final OrderRepository orders;

    OrderController(OrderRepository orders) {
        this.orders = orders;
    }

    /**
     * {@code POST /orders} with {@code {"customer": "...", "amount": 12.5}}: 201 with the order and its
     * {@code Location}.
     */
    @PostMapping
    ResponseEntity<Order> create(@RequestBody OrderRequest request) {
        Order order = orders.save(request.toOrder());
        URI location = ServletUriComponentsBuilder.fromCurrentContextPath()
                .path("/orders/{id}")
                .buildAndExpand(order.getId())
                .toUri();
        return ResponseEntity.created(location).body(order);
    }

    /** {@code GET /orders/{id}}: the order, or 404 when there is none with that ID. */
    @GetMapping("/{id}")
    Order read(@PathVariable String id) {
        long orderId = IdArguments.checkId(IdEndpoints.parseId(id));
        return orders.findById(orderId)
                .orElseThrow(() -> new ResponseStatusException(HttpStatus.NOT_FOUND, "No order has id " + orderId));
    }
}
