package dev.idgen.server;

import java.time.Duration;

/**
 * A request the server turns down, whatever the transport: HTTP answers it as problem+json with the status of its
 * {@link Reason}, gRPC with the matching status code. The message says what to fix and, for a bad argument, names
 * the parameter.
 */
public final class ServerRefusal extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** Why, with the HTTP status each answers with. */
    public enum Reason {
        /** A parameter out of its range or malformed: {@link #parameter()} names it. */
        BAD_ARGUMENT(400),
        /** No token, or one no client has. */
        UNAUTHENTICATED(401),
        /** The client may not use this name or generator. */
        FORBIDDEN(403),
        /** No such name or generator serves blocks (e.g. blocks of a Snowflake name). */
        NOT_FOUND(404),
        /** The client sent more requests than its rate limit: {@link #retryAfter()} says when to try again. */
        RATE_LIMITED(429),
        /**
         * The client has as many names in use as it may: {@link #retryAfter()} says when its least recently used
         * one is released.
         */
        TOO_MANY_NAMES(429),
        /** The store cannot answer now: another server may. */
        UNAVAILABLE(503),
        /**
         * Too many requests wait for the stores already: refused at once rather than queued, with
         * {@link #retryAfter()}; another server may answer.
         */
        OVERLOADED(503);

        private final int httpStatus;

        Reason(int httpStatus) {
            this.httpStatus = httpStatus;
        }

        /** @return the HTTP status this reason answers with */
        public int httpStatus() {
            return httpStatus;
        }
    }

    private final Reason reason;

    private final String parameter;

    private final Duration retryAfter;

    /**
     * @param reason why
     * @param parameter the parameter at fault, or {@code null}
     * @param retryAfter when a rate-limited client may try again, or {@code null}
     * @param message what to fix
     */
    public ServerRefusal(Reason reason, String parameter, Duration retryAfter, String message) {
        // No stack trace: a refusal is an answer, thrown on every bad request (and on every request over a rate
        // limit), not a fault to trace.
        super(message, null, false, false);
        this.reason = reason;
        this.parameter = parameter;
        this.retryAfter = retryAfter;
    }

    /** @return why */
    public Reason reason() {
        return reason;
    }

    /** @return the parameter at fault, or {@code null} */
    public String parameter() {
        return parameter;
    }

    /** @return when a rate-limited client may try again, or {@code null} */
    public Duration retryAfter() {
        return retryAfter;
    }
}
