package dev.idgen.spring.web;

import dev.idgen.core.IdGenerationException;
import dev.idgen.core.InvalidArgumentException;
import org.springframework.core.Ordered;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * idgen's exceptions, from any controller, as {@code application/problem+json} ({@link IdgenProblems}): an
 * {@link InvalidArgumentException} (a bad name, count or id) is 400 naming the argument, an
 * {@link IdGenerationException} (a store unavailable, the clock behind, ...) is 503. The same class serves Spring MVC
 * and WebFlux: both take an {@code @ExceptionHandler} that returns a {@code ResponseEntity}.
 *
 * <p>Only idgen's own types: a plain {@link IllegalArgumentException} from the application's code stays the
 * application's to answer. Ordered last, so that any advice of the application's that handles these exceptions (or
 * a supertype) is asked first and wins; an {@code @ExceptionHandler} in the controller itself wins anyway.
 */
@RestControllerAdvice
public final class IdgenProblemHandler implements Ordered {

    @ExceptionHandler(InvalidArgumentException.class)
    public ResponseEntity<ProblemDetail> invalidArgument(InvalidArgumentException e) {
        return IdgenProblems.invalidArgument(e);
    }

    @ExceptionHandler(IdGenerationException.class)
    public ResponseEntity<ProblemDetail> generationFailed(IdGenerationException e) {
        return IdgenProblems.generationFailed(e);
    }

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }
}
