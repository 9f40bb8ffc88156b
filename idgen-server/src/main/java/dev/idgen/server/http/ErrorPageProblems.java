package dev.idgen.server.http;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import java.net.URI;
import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The error page, {@code /error}, as problem+json instead of Spring Boot's whitelabel page: what reaches it has not
 * passed {@link ServerProblems} (an exception nothing handled, a {@code sendError} from the container). A server
 * error never shows its exception's message, which may tell internals.
 */
@RestController
final class ErrorPageProblems implements ErrorController {

    @RequestMapping("${server.error.path:${error.path:/error}}")
    ResponseEntity<ProblemDetail> error(HttpServletRequest request) {
        HttpStatus status = HttpStatus.NOT_FOUND; // /error asked for directly is no resource
        if (request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE) instanceof Integer code) {
            HttpStatus known = HttpStatus.resolve(code);
            status = known == null ? HttpStatus.INTERNAL_SERVER_ERROR : known;
        }
        String message = request.getAttribute(RequestDispatcher.ERROR_MESSAGE) instanceof String text ? text : "";
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(
                status, status.is5xxServerError() || message.isBlank() ? status.getReasonPhrase() : message);
        problem.setType(URI.create("about:blank"));
        problem.setTitle(status.getReasonPhrase());
        return new ResponseEntity<>(problem, ServerProblems.problemJson(), status);
    }
}
