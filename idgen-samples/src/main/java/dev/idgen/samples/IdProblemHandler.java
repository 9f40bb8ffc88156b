package dev.idgen.samples;

import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * Spring MVC's own errors (no such resource 404, method not allowed 405, ...) as {@code application/problem+json},
 * typed {@code about:blank}, and an order body that cannot be read as 400 naming the field. idgen's exceptions (a bad
 * argument 400 naming the parameter, a generator that refuses to issue 503) are the starter's to answer
 * ({@code IdgenProblemHandler}, which is ordered after this advice): this one handles none of them, nor any supertype,
 * so as not to take them over. What Tomcat turns down before Spring MVC runs is answered by
 * {@link ProblemJsonErrorReportValve}, and errors forwarded to {@code /error} by {@link ProblemErrorController}. The
 * problems themselves come from {@link IdProblems}, which WebFlux's {@link ReactiveIdProblemHandler} uses too.
 */
@RestControllerAdvice
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
class IdProblemHandler extends ResponseEntityExceptionHandler {

    /**
     * Spring MVC's exceptions as problem+json with every RFC 9457 member spelled out: Spring leaves {@code type} out
     * when it is {@code about:blank}, and would pick {@code application/json} for a client that accepts only that.
     */
    @Override
    protected ResponseEntity<Object> createResponseEntity(
            Object body, HttpHeaders headers, HttpStatusCode statusCode, WebRequest request) {
        HttpHeaders problemHeaders = HttpHeaders.copyOf(headers);
        if (body instanceof ProblemDetail problem) {
            IdProblems.typed(problem);
            problemHeaders.setContentType(MediaType.APPLICATION_PROBLEM_JSON);
        }
        return new ResponseEntity<>(body, problemHeaders, statusCode);
    }

    /**
     * A request body that cannot be read (the orders' JSON): 400 naming the field at fault, or {@code body} when the
     * body as a whole is missing, not JSON or not an object. Spring's own detail would show the handler method.
     */
    @Override
    protected ResponseEntity<Object> handleHttpMessageNotReadable(
            HttpMessageNotReadableException ex, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        ProblemDetail problem = IdProblems.unreadableBody(ex);
        return new ResponseEntity<>(problem, problemJson(), HttpStatus.BAD_REQUEST);
    }

    private static HttpHeaders problemJson() {
        HttpHeaders headers = new HttpHeaders();
        headers.setContentType(MediaType.APPLICATION_PROBLEM_JSON);
        return headers;
    }
}
