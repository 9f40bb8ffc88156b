package dev.idgen.samples;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.apache.coyote.ActionCode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Tomcat's error report as {@code application/problem+json} instead of an HTML page. It answers what Tomcat turns
 * down before any servlet runs, so before Spring MVC and {@link IdProblemHandler} can: a NUL ({@code %00}), an
 * encoded slash ({@code %2F}) or a broken escape in the path, a request line longer than
 * {@code server.max-http-request-header-size}. When the path is known and one of ours, the problem names the
 * parameter at fault with the same rule and message as {@link IdController} would give; a request line too long to
 * read has no known path, so it gets a plain 400.
 */
public final class ProblemJsonErrorReportValve extends ErrorReportValve {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** Tomcat may create the host's error report valve by class name. */
    public ProblemJsonErrorReportValve() {}

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        int status = response.getStatus();
        // As the HTML report does: only errors, only when nothing was written, only once per response.
        if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
            return;
        }
        AtomicBoolean ioAllowed = new AtomicBoolean(true);
        response.getCoyoteResponse().action(ActionCode.IS_IO_ALLOWED, ioAllowed);
        if (!ioAllowed.get()) {
            return;
        }
        byte[] body = JSON.writeValueAsBytes(problem(status, request, response));
        try {
            // Bytes, not the reporter's writer: a writer would add ";charset=..." which no other answer of the
            // service carries (JSON is UTF-8 by definition, RFC 8259).
            response.setContentType("application/problem+json");
            response.setContentLength(body.length);
            response.getOutputStream().write(body);
            response.finishResponse();
        } catch (IOException | IllegalStateException e) {
            // The client is gone or the response cannot take a body any more: nothing left to tell it.
        }
    }

    private static Map<String, Object> problem(int status, Request request, Response response) {
        // Tomcat could not read the request line when no path is known, so no parameter can be named.
        return IdProblems.rejectedRequest(
                status,
                rawPath(request),
                response.getMessage(),
                "The request line or headers could not be read: longer than the server accepts"
                        + " (server.max-http-request-header-size, 8KB by default) or malformed.");
    }

    /** The path as sent, before Tomcat's decoding and normalisation (which may have rejected it). */
    private static String rawPath(Request request) {
        String uri = request.getCoyoteRequest().requestURI().toString();
        return uri == null || uri.isEmpty() ? null : uri;
    }
}
