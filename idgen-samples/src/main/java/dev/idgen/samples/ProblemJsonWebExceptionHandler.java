package dev.idgen.samples;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.webflux.error.ErrorWebExceptionHandler;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.stereotype.Component;
import org.springframework.web.ErrorResponse;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * WebFlux's error page as {@code application/problem+json}, in place of Spring Boot's DefaultErrorWebExceptionHandler
 * (JSON or an HTML whitelabel page), as {@link ProblemErrorController} is on Spring MVC: it answers what fails without
 * passing {@link ReactiveIdProblemHandler}, such as an exception no handler knows (500, without its message) or an
 * error raised by a web filter. Being an {@link ErrorWebExceptionHandler} bean, it keeps Boot's default from being
 * made.
 */
@Component
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
@Order(-1)
class ProblemJsonWebExceptionHandler implements ErrorWebExceptionHandler {

    private static final Log LOG = LogFactory.getLog(ProblemJsonWebExceptionHandler.class);

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Override
    public Mono<Void> handle(ServerWebExchange exchange, Throwable failure) {
        ServerHttpResponse response = exchange.getResponse();
        if (response.isCommitted()) {
            // Part of an answer went out already: no status or body can be given any more.
            return Mono.error(failure);
        }
        HttpStatus status = HttpStatus.INTERNAL_SERVER_ERROR;
        String reason = null;
        if (failure instanceof ErrorResponse error
                && HttpStatus.resolve(error.getStatusCode().value()) != null) {
            status = HttpStatus.valueOf(error.getStatusCode().value());
            reason = error.getBody().getDetail();
            response.getHeaders().addAll(error.getHeaders());
        }
        if (status.is5xxServerError()) {
            // The answer leaves the cause out, so the log must have it.
            LOG.error(
                    "Request " + exchange.getRequest().getMethod() + " "
                            + exchange.getRequest().getPath().value() + " failed",
                    failure);
        }
        ProblemDetail problem = IdProblems.ofStatus(
                status, reason, exchange.getRequest().getPath().value());
        byte[] body = JSON.writeValueAsBytes(IdProblems.members(problem));
        response.setStatusCode(status);
        response.getHeaders().setContentType(MediaType.APPLICATION_PROBLEM_JSON);
        response.getHeaders().setContentLength(body.length);
        return response.writeWith(Mono.just(response.bufferFactory().wrap(body)));
    }
}
