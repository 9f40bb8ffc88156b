package dev.idgen.server.http;

import dev.idgen.server.ServerRefusal;
import dev.idgen.server.ServerRefusal.Reason;
import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * Every refusal as {@code application/problem+json} (RFC 9457): {@code type}, {@code title}, {@code status},
 * {@code detail} and, for a bad argument, {@code parameter}. A {@link ServerRefusal} answers with its reason's status,
 * 401 with {@code WWW-Authenticate: Bearer}, 429 and a 503 that knows when with {@code Retry-After}. Spring MVC's own
 * errors (no such path, method not allowed, ...) come as problem+json too, typed {@code about:blank}.
 */
@RestControllerAdvice
final class ServerProblems extends ResponseEntityExceptionHandler {

    private static final String TYPES = "https://idgen.dev/problems/";

    private static final URI ABOUT_BLANK = URI.create("about:blank");

    @ExceptionHandler(ServerRefusal.class)
    ResponseEntity<ProblemDetail> refused(ServerRefusal refusal) {
        Reason reason = refusal.reason();
        ProblemDetail problem =
                ProblemDetail.forStatusAndDetail(HttpStatus.valueOf(reason.httpStatus()), refusal.getMessage());
        problem.setType(URI.create(TYPES + type(reason)));
        if (refusal.parameter() != null) {
            problem.setTitle("Invalid parameter: " + refusal.parameter());
            problem.setProperty("parameter", refusal.parameter());
        } else {
            problem.setTitle(HttpStatus.valueOf(reason.httpStatus()).getReasonPhrase());
        }
        HttpHeaders headers = problemJson();
        if (reason == Reason.UNAUTHENTICATED) {
            headers.set(HttpHeaders.WWW_AUTHENTICATE, "Bearer");
        }
        if (refusal.retryAfter() != null) {
            headers.set(HttpHeaders.RETRY_AFTER, Long.toString(wholeSeconds(refusal.retryAfter())));
        }
        return new ResponseEntity<>(problem, headers, reason.httpStatus());
    }

    /** A required parameter Spring found missing: named, as a missing parameter of ours is. */
    @Override
    protected ResponseEntity<Object> handleMissingServletRequestParameter(
            MissingServletRequestParameterException ex,
            HttpHeaders headers,
            HttpStatusCode status,
            WebRequest request) {
        ProblemDetail problem = ex.getBody();
        problem.setProperty("parameter", ex.getParameterName());
        return createResponseEntity(problem, headers, status, request);
    }

    /** Spring's own problems with every RFC 9457 member, as problem+json whatever the client accepts. */
    @Override
    protected ResponseEntity<Object> createResponseEntity(
            Object body, HttpHeaders headers, HttpStatusCode statusCode, WebRequest request) {
        if (!(body instanceof ProblemDetail problem)) {
            return super.createResponseEntity(body, headers, statusCode, request);
        }
        // Spring leaves type unset for its own errors; RFC 9457 reads a missing type as about:blank, clients may not.
        problem.setType(problem.getType() == null ? ABOUT_BLANK : problem.getType());
        HttpHeaders answer = problemJson();
        headers.forEach((header, values) -> answer.addAll(header, values));
        answer.setContentType(MediaType.APPLICATION_PROBLEM_JSON);
        return new ResponseEntity<>(problem, answer, statusCode);
    }

    static HttpHeaders problemJson() {
        HttpHeaders headers = new HttpHeaders();
        headers.setContentType(MediaType.APPLICATION_PROBLEM_JSON);
        return headers;
    }

    /** {@code invalid-parameter}, {@code rate-limited}, ...: stable names a client can switch on. */
    private static String type(Reason reason) {
        return reason == Reason.BAD_ARGUMENT
                ? "invalid-parameter"
                : reason.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** Retry-After counts whole seconds: rounded up, so that a client that waits it out is let in. */
    private static long wholeSeconds(Duration wait) {
        long seconds = wait.getSeconds() + (wait.getNano() > 0 ? 1 : 0);
        return Math.max(1, seconds);
    }
}
