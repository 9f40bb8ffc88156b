package dev.idgen.samples;

import dev.idgen.core.StoreUnavailableException;
import dev.idgen.spring.web.IdgenProblems;
import java.util.concurrent.RejectedExecutionException;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.reactive.result.method.annotation.ResponseEntityExceptionHandler;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.ServerWebInputException;
import reactor.core.publisher.Mono;

/**
 * {@link IdProblemHandler}'s answers on WebFlux, from the same {@link IdProblems}: WebFlux's own errors (no such
 * resource 404, method not allowed 405, ...) are problem+json typed {@code about:blank}, and a full blocking executor
 * is 503. idgen's exceptions (a bad argument 400 naming the parameter, a generator that refuses to issue 503) are the
 * starter's to answer ({@code IdgenProblemHandler}, ordered after this advice), so this one handles none of them.
 * What fails outside the controllers reaches {@link ProblemJsonWebExceptionHandler}; what Netty's request decoding
 * turns down, {@link NettyRejectedRequestProblems}.
 */
@RestControllerAdvice
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
class ReactiveIdProblemHandler extends ResponseEntityExceptionHandler {

    /**
     * The starter's bounded executor for blocking calls, which runs a form's {@code next}, is full: the service is
     * overloaded, which retrying later can cure, as with a store that does not answer.
     */
    @ExceptionHandler(RejectedExecutionException.class)
    ResponseEntity<ProblemDetail> overloaded(RejectedExecutionException e) {
        return IdgenProblems.generationFailed(new StoreUnavailableException(
                "Too many calls wait for a store (idgen.reactive.blocking-threads, idgen.reactive.blocking-queue):"
                        + " try again shortly",
                e));
    }

    /**
     * An order body that cannot be read (the {@code r2dbc} profile's orders): 400 naming the field at fault, or
     * {@code body}, as {@link IdProblemHandler} answers on Spring MVC. Other unreadable input (a path variable, a
     * request parameter) keeps WebFlux's answer.
     */
    @Override
    protected Mono<ResponseEntity<Object>> handleServerWebInputException(
            ServerWebInputException ex, HttpHeaders headers, HttpStatusCode status, ServerWebExchange exchange) {
        if (ex.getMethodParameter() == null || !ex.getMethodParameter().hasParameterAnnotation(RequestBody.class)) {
            return super.handleServerWebInputException(ex, headers, status, exchange);
        }
        HttpHeaders problemJson = new HttpHeaders();
        problemJson.setContentType(MediaType.APPLICATION_PROBLEM_JSON);
        return Mono.just(new ResponseEntity<>(IdProblems.unreadableBody(ex), problemJson, HttpStatus.BAD_REQUEST));
    }

    /** WebFlux's exceptions as problem+json with every member spelled out, as {@link IdProblemHandler} does. */
    @Override
    protected Mono<ResponseEntity<Object>> createResponseEntity(
            Object body, HttpHeaders headers, HttpStatusCode status, ServerWebExchange exchange) {
        HttpHeaders problemHeaders = HttpHeaders.copyOf(headers);
        if (body instanceof ProblemDetail problem) {
            IdProblems.typed(problem);
            if (problem.getTitle() == null) {
                HttpStatus known = HttpStatus.resolve(status.value());
                problem.setTitle(known != null ? known.getReasonPhrase() : "HTTP " + status.value());
            }
            problemHeaders.setContentType(MediaType.APPLICATION_PROBLEM_JSON);
        }
        return Mono.just(new ResponseEntity<>(body, problemHeaders, status));
    }
}
