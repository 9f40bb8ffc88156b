package dev.idgen.samples;

import dev.idgen.core.ClockBackwardsException;
import dev.idgen.core.IdGenerationException;
import dev.idgen.core.InvalidArgumentException;
import java.net.URI;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * Errors as {@code application/problem+json}: a bad argument is 400 naming the parameter; a generator that refuses to
 * issue (clock behind, store unavailable) is 503, since retrying later can succeed. Spring MVC's own errors (no such
 * resource 404, method not allowed 405, ...) come as problem+json too, typed {@code about:blank}. What Tomcat turns
 * down before Spring MVC runs is answered by {@link ProblemJsonErrorReportValve}, and errors forwarded to
 * {@code /error} by {@link ProblemErrorController}.
 */
@RestControllerAdvice
class IdProblemHandler extends ResponseEntityExceptionHandler {

    /** The problem type of a request argument that breaks its rule. */
    static final URI INVALID_PARAMETER = URI.create("https://idgen.dev/problems/invalid-parameter");

    private static final URI ABOUT_BLANK = URI.create("about:blank");

    static String invalidParameterTitle(InvalidArgumentException e) {
        return "Invalid parameter: " + e.argument();
    }

    @ExceptionHandler(InvalidArgumentException.class)
    ResponseEntity<ProblemDetail> invalidArgument(InvalidArgumentException e) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, e.getMessage());
        problem.setTitle(invalidParameterTitle(e));
        problem.setType(INVALID_PARAMETER);
        problem.setProperty("parameter", e.argument());
        return respond(problem, null);
    }

    /**
     * Spring MVC's exceptions as problem+json with every RFC 9457 member spelled out: Spring leaves {@code type} out
     * when it is {@code about:blank}, and would pick {@code application/json} for a client that accepts only that.
     */
    @Override
    protected ResponseEntity<Object> createResponseEntity(Object body, HttpHeaders headers, HttpStatusCode statusCode,
            WebRequest request) {
        HttpHeaders problemHeaders = HttpHeaders.copyOf(headers);
        if (body instanceof ProblemDetail problem) {
            if (problem.getType() == null) {
                problem.setType(ABOUT_BLANK);
            }
            problemHeaders.setContentType(MediaType.APPLICATION_PROBLEM_JSON);
        }
        return new ResponseEntity<>(body, problemHeaders, statusCode);
    }

    /** An {@code IdService} may reject an argument with a plain {@link IllegalArgumentException}. */
    @ExceptionHandler(IllegalArgumentException.class)
    ResponseEntity<ProblemDetail> illegalArgument(IllegalArgumentException e) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, e.getMessage());
        problem.setTitle("Invalid request");
        problem.setType(INVALID_PARAMETER);
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
