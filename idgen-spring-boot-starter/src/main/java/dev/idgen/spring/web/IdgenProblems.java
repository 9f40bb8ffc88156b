package dev.idgen.spring.web;

import dev.idgen.core.ClockBackwardsException;
import dev.idgen.core.IdGenerationException;
import dev.idgen.core.InvalidArgumentException;
import java.net.URI;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;

/**
 * The problems ({@code application/problem+json}, RFC 9457) that {@link IdgenProblemHandler} answers for idgen's
 * exceptions, public so that an application's own handlers (or its error pages for requests the web server turns
 * down) can answer the same members.
 */
public final class IdgenProblems {

    /** The problem type of a request argument that breaks its rule (a name, a count, an id). */
    public static final URI INVALID_PARAMETER = URI.create("https://idgen.dev/problems/invalid-parameter");

    /** The problem type of a generator that refused to issue: a store that did not answer, a lost lease, ... */
    public static final URI GENERATION_FAILED = URI.create("https://idgen.dev/problems/generation-failed");

    /** The problem type of a clock that stepped back further than the generator waits out. */
    public static final URI CLOCK_BACKWARDS = URI.create("https://idgen.dev/problems/clock-backwards");

    /** The title of every problem of {@link #GENERATION_FAILED} or {@link #CLOCK_BACKWARDS} type. */
    public static final String GENERATION_FAILED_TITLE = "No ID could be issued safely";

    private IdgenProblems() {}

    /**
     * @param argument the argument's name, as {@link InvalidArgumentException#argument()}
     * @return the title of a problem of {@link #INVALID_PARAMETER} type
     */
    public static String invalidParameterTitle(String argument) {
        return "Invalid parameter: " + argument;
    }

    /**
     * A request argument that breaks its rule: 400 with the exception's message, which names the argument and the
     * rule, and the argument's name as the member {@code parameter}.
     */
    public static ResponseEntity<ProblemDetail> invalidArgument(InvalidArgumentException e) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, e.getMessage());
        problem.setType(INVALID_PARAMETER);
        problem.setTitle(invalidParameterTitle(e.argument()));
        problem.setProperty("parameter", e.argument());
        return respond(problem, null);
    }

    /**
     * A generator that refused to issue (a store unavailable, the clock behind, a lost lease): 503, since retrying
     * later can succeed; for a clock behind, {@code Retry-After} is how long it has to catch up, in whole seconds.
     */
    public static ResponseEntity<ProblemDetail> generationFailed(IdGenerationException e) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE, e.getMessage());
        problem.setTitle(GENERATION_FAILED_TITLE);
        String retryAfter = null;
        if (e instanceof ClockBackwardsException clock) {
            problem.setType(CLOCK_BACKWARDS);
            retryAfter = Long.toString(Math.max(1, (clock.behindMillis() + 999) / 1000));
        } else {
            problem.setType(GENERATION_FAILED);
        }
        return respond(problem, retryAfter);
    }

    /**
     * The content type set on the answer, not negotiated: a client that accepts only {@code application/json} still
     * gets the problem rather than a 406, and one that prefers HTML gets no error page.
     */
    private static ResponseEntity<ProblemDetail> respond(ProblemDetail problem, String retryAfter) {
        ResponseEntity.BodyBuilder response =
                ResponseEntity.status(problem.getStatus()).contentType(MediaType.APPLICATION_PROBLEM_JSON);
        if (retryAfter != null) {
            response.header(HttpHeaders.RETRY_AFTER, retryAfter);
        }
        return response.body(problem);
    }
}
