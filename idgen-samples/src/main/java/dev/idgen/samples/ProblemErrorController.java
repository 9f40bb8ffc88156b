package dev.idgen.samples;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import java.net.URI;
import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The error page as {@code application/problem+json}, in place of Spring Boot's BasicErrorController (JSON or an HTML
 * whitelabel page): it answers what reaches {@code /error} without passing {@link IdProblemHandler}, such as an
 * exception no handler knows, or a {@code sendError} from a filter or from Tomcat inside the application.
 */
@RestController
class ProblemErrorController implements ErrorController {

    private static final URI ABOUT_BLANK = URI.create("about:blank");

    @RequestMapping("${server.error.path:${error.path:/error}}")
    ResponseEntity<ProblemDetail> error(HttpServletRequest request) {
        Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
        // Called directly, /error is no resource of the service.
        HttpStatus status = code instanceof Integer value && HttpStatus.resolve(value) != null
                ? HttpStatus.valueOf(value)
                : HttpStatus.NOT_FOUND;
        ProblemDetail problem = ProblemDetail.forStatus(status);
        problem.setType(ABOUT_BLANK);
        problem.setTitle(status.getReasonPhrase());
        problem.setDetail(detail(status, request.getAttribute(RequestDispatcher.ERROR_MESSAGE)));
        // The request that failed, not /error where it was forwarded to.
        if (request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI) instanceof String uri && !uri.isEmpty()) {
            try {
                problem.setInstance(URI.create(uri));
            } catch (IllegalArgumentException e) {
                // Not a valid URI reference as sent: leave instance out rather than guess.
            }
        }
        return ResponseEntity.status(status)
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .body(problem);
    }

    /** The reason given for a client error; never an exception's message for a server error: it may leak internals. */
    private static String detail(HttpStatus status, Object message) {
        if (status.is5xxServerError()) {
            return "The server could not answer this request; its log has the cause.";
        }
        return message instanceof String text && !text.isBlank() ? text : status.getReasonPhrase();
    }
}
