package dev.idgen.samples;

import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponseDecorator;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@link BodilessErrorFilter} on WebFlux: actuator endpoints answer an unknown meter or health component with a bare
 * 404, which gets the problem+json body every other error of the service carries.
 */
@Component
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
class BodilessErrorWebFilter implements WebFilter {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        String path = exchange.getRequest().getPath().value();
        if (!path.startsWith("/actuator/")) {
            return chain.filter(exchange);
        }
        // An answer without a body ends with setComplete(); one with a body never calls it before writing.
        ServerHttpResponseDecorator watched = new ServerHttpResponseDecorator(exchange.getResponse()) {
            @Override
            public Mono<Void> setComplete() {
                HttpStatusCode status = getStatusCode();
                if (status == null
                        || !status.isError()
                        || isCommitted()
                        || HttpStatus.resolve(status.value()) == null) {
                    return super.setComplete();
                }
                byte[] body = JSON.writeValueAsBytes(
                        IdProblems.members(IdProblems.ofStatus(HttpStatus.valueOf(status.value()), null, path)));
                getHeaders().setContentType(MediaType.APPLICATION_PROBLEM_JSON);
                getHeaders().setContentLength(body.length);
                return super.writeWith(Mono.just(bufferFactory().wrap(body)));
            }
        };
        return chain.filter(exchange.mutate().response(watched).build());
    }
}
