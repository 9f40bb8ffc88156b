package dev.idgen.samples;

import dev.idgen.core.InvalidArgumentException;
import dev.idgen.spring.web.IdgenProblems;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import tools.jackson.core.JacksonException;
import tools.jackson.core.exc.StreamReadException;

/**
 * The problems ({@code application/problem+json}, RFC 9457) the sample answers beyond the starter's, made in one place
 * for both web stacks: {@link IdProblemHandler}, {@link ProblemErrorController} and
 * {@link ProblemJsonErrorReportValve} on Spring MVC and Tomcat; {@link ReactiveIdProblemHandler},
 * {@link ProblemJsonWebExceptionHandler} and {@link NettyRejectedRequestProblems} on WebFlux and Netty. idgen's own
 * exceptions from the controllers are answered by the starter ({@link IdgenProblems}); a bad argument the web server
 * turns down before a controller runs gets the same members from here. A client sees the same type, title, detail and
 * {@code parameter} whichever stack serves it.
 */
final class IdProblems {

    /** The problem type of a request argument that breaks its rule, the starter's. */
    static final URI INVALID_PARAMETER = IdgenProblems.INVALID_PARAMETER;

    static final URI ABOUT_BLANK = URI.create("about:blank");

    /** The detail of every server fault: an exception's message may leak internals. */
    static final String SERVER_FAULT_DETAIL = "The server could not answer this request; its log has the cause.";

    private IdProblems() {}

    /**
     * An order body that cannot be read, on either stack: 400 naming the field at fault, or {@code body} when the body
     * as a whole is missing, not JSON or not an object. Spring MVC puts Jackson's exception right under its own;
     * WebFlux puts a {@code DecodingException} between them, so the cause chain is searched.
     *
     * @param unreadable the web framework's exception
     */
    static ProblemDetail unreadableBody(Throwable unreadable) {
        JacksonException jackson = null;
        for (Throwable cause = unreadable.getCause(); cause != null && jackson == null; cause = cause.getCause()) {
            if (cause instanceof JacksonException found) {
                jackson = found;
            }
        }
        String parameter = "body";
        String detail;
        if (jackson instanceof StreamReadException syntax) {
            detail = "The request body is not valid JSON: " + shortened(syntax.getOriginalMessage());
        } else if (jackson != null && !jackson.getPath().isEmpty()) {
            parameter = fieldPath(jackson);
            detail = parameter + " has the wrong type or form: " + shortened(jackson.getOriginalMessage());
        } else if (jackson != null) {
            detail = "The request body must be a JSON object";
        } else {
            detail = "The request needs a JSON body";
        }
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, detail);
        problem.setTitle(IdgenProblems.invalidParameterTitle(parameter));
        problem.setType(INVALID_PARAMETER);
        problem.setProperty("parameter", parameter);
        return problem;
    }

    /** {@code amount}, {@code lines[2].sku}: the path to the member Jackson could not read. */
    private static String fieldPath(JacksonException e) {
        StringBuilder path = new StringBuilder();
        for (JacksonException.Reference reference : e.getPath()) {
            if (reference.getPropertyName() != null) {
                path.append(path.isEmpty() ? "" : ".").append(reference.getPropertyName());
            } else {
                path.append('[').append(reference.getIndex()).append(']');
            }
        }
        return path.toString();
    }

    /** The first line, cut short: Jackson's messages can quote a long stretch of the input. */
    private static String shortened(String message) {
        String line = message == null ? "" : message.lines().findFirst().orElse("");
        return line.length() > 200 ? line.substring(0, 200) + "..." : line;
    }

    /** The starter's title, for a bad argument the web server turns down before a controller could. */
    static String invalidParameterTitle(InvalidArgumentException e) {
        return IdgenProblems.invalidParameterTitle(e.argument());
    }

    /**
     * An error of the web framework or the server, typed {@code about:blank}: the status's reason as title, the
     * reason given as detail for a client error, never a reason for a server error.
     *
     * @param instance the request that failed, or {@code null}
     */
    static ProblemDetail ofStatus(HttpStatus status, String reason, String instance) {
        ProblemDetail problem = ProblemDetail.forStatus(status);
        problem.setType(ABOUT_BLANK);
        problem.setTitle(status.getReasonPhrase());
        problem.setDetail(
                status.is5xxServerError()
                        ? SERVER_FAULT_DETAIL
                        : reason != null && !reason.isBlank() ? reason : status.getReasonPhrase());
        if (instance != null && !instance.isEmpty()) {
            try {
                problem.setInstance(URI.create(instance));
            } catch (IllegalArgumentException e) {
                // Not a valid URI reference as sent: leave instance out rather than guess.
            }
        }
        return problem;
    }

    /**
     * The problem, as JSON members, for a request the web server turned down before the application saw it: when
     * the path is one of ours and an argument in it breaks its rule, that rule and message naming the parameter, as
     * the controller would give; otherwise a plain problem.
     *
     * @param rawPath the path as sent, still percent-encoded, or {@code null} when the request line could not be read
     * @param reason why the server turned it down, or {@code null}
     * @param unreadable the detail for a request whose line or headers could not be read: which limits apply
     */
    static Map<String, Object> rejectedRequest(int status, String rawPath, String reason, String unreadable) {
        InvalidArgumentException atFault = status == 400 ? IdEndpoints.pathArgumentAtFault(rawPath) : null;
        if (atFault != null) {
            Map<String, Object> problem = new LinkedHashMap<>();
            problem.put("type", INVALID_PARAMETER.toString());
            problem.put("title", invalidParameterTitle(atFault));
            problem.put("status", status);
            problem.put("detail", atFault.getMessage());
            problem.put("parameter", atFault.argument());
            return problem;
        }
        String detail;
        if (status >= 500) {
            detail = SERVER_FAULT_DETAIL;
        } else if (rawPath == null) {
            detail = unreadable;
        } else {
            String given = reason == null || reason.isBlank() ? reasonPhrase(status) : reason;
            detail = "The server turned the request down before it reached the service: " + given;
        }
        return plain(status, detail);
    }

    /** A problem typed {@code about:blank}, as JSON members: the status's reason as title. */
    static Map<String, Object> plain(int status, String detail) {
        Map<String, Object> problem = new LinkedHashMap<>();
        problem.put("type", ABOUT_BLANK.toString());
        problem.put("title", reasonPhrase(status));
        problem.put("status", status);
        problem.put("detail", detail);
        return problem;
    }

    /** A problem's JSON members, for writers that have no Spring message converter at hand. */
    static Map<String, Object> members(ProblemDetail problem) {
        Map<String, Object> members = new LinkedHashMap<>();
        members.put("type", (problem.getType() != null ? problem.getType() : ABOUT_BLANK).toString());
        members.put("title", problem.getTitle());
        members.put("status", problem.getStatus());
        members.put("detail", problem.getDetail());
        if (problem.getInstance() != null) {
            members.put("instance", problem.getInstance().toString());
        }
        if (problem.getProperties() != null) {
            members.putAll(problem.getProperties());
        }
        return members;
    }

    private static String reasonPhrase(int status) {
        HttpStatus known = HttpStatus.resolve(status);
        return known != null ? known.getReasonPhrase() : "HTTP " + status;
    }

    /** Every RFC 9457 member spelled out: Spring leaves {@code type} out when it is {@code about:blank}. */
    static ProblemDetail typed(ProblemDetail problem) {
        if (problem.getType() == null) {
            problem.setType(ABOUT_BLANK);
        }
        return problem;
    }
}
