package dev.idgen.samples;

import dev.idgen.core.ClockBackwardsException;
import dev.idgen.core.IdGenerationException;
import dev.idgen.core.InvalidArgumentException;
import java.net.URI;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * Errors as {@code application/problem+json}: a bad argument is 400 naming the parameter; a generator that refuses to
 * issue (clock behind, store unavailable) is 503, since retrying later can succeed.
 */
@RestControllerAdvice
class IdProblemHandler {

    @ExceptionHandler(InvalidArgumentException.class)
    ResponseEntity<ProblemDetail> invalidArgument(InvalidArgumentException e) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, e.getMessage());
        problem.setTitle("Invalid parameter: " + e.argument());
        problem.setType(URI.create("https://idgen.dev/problems/invalid-parameter"));
        problem.setProperty("parameter", e.argument());
        return respond(problem, null);
    }

    /** An {@code IdService} may reject an argument with a plain {@link IllegalArgumentException}. */
    @ExceptionHandler(IllegalArgumentException.class)
    ResponseEntity<ProblemDetail> illegalArgument(IllegalArgumentException e) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, e.getMessage());
        problem.setTitle("Invalid request");
        problem.setType(URI.create("https://idgen.dev/problems/invalid-parameter"));
        return respond(problem, null);
    }

    @ExceptionHandler(IdGenerationException.class)
    ResponseEntity<ProblemDetail> generationFailed(IdGenerationException e) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE, e.getMessage());
        problem.setTitle("No ID could be issued safely");
        problem.setType(URI.create("https://idgen.dev/problems/" + problemType(e)));
        String retryAfter = e instanceof ClockBackwardsException clock
                ? Long.toString(Math.max(1, (clock.behindMillis() + 999) / 1000)) : null;
        return respond(problem, retryAfter);
    }

    private static String problemType(IdGenerationException e) {
        return e instanceof ClockBackwardsException ? "clock-backwards" : "generation-failed";
    }

    private static ResponseEntity<ProblemDetail> respond(ProblemDetail problem, String retryAfter) {
        ResponseEntity.BodyBuilder response = ResponseEntity.status(problem.getStatus())
                .contentType(MediaType.APPLICATION_PROBLEM_JSON);
        if (retryAfter != null) {
            response.header(HttpHeaders.RETRY_AFTER, retryAfter);
        }
        return response.body(problem);
    }
}
