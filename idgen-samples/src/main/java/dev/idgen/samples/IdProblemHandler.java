package dev.idgen.samples;

import dev.idgen.spring.web.IdgenProblems;
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
import tools.jackson.core.JacksonException;
import tools.jackson.core.exc.StreamReadException;

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
        String parameter = "body";
        String detail;
        if (ex.getCause() instanceof StreamReadException syntax) {
            detail = "The request body is not valid JSON: " + shortened(syntax.getOriginalMessage());
        } else if (ex.getCause() instanceof JacksonException mapping
                && !mapping.getPath().isEmpty()) {
            parameter = fieldPath(mapping);
            detail = parameter + " has the wrong type or form: " + shortened(mapping.getOriginalMessage());
        } else if (ex.getCause() instanceof JacksonException) {
            detail = "The request body must be a JSON object";
        } else {
            detail = "The request needs a JSON body";
        }
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, detail);
        problem.setTitle(IdgenProblems.invalidParameterTitle(parameter));
        problem.setType(IdProblems.INVALID_PARAMETER);
        problem.setProperty("parameter", parameter);
        return new ResponseEntity<>(problem, problemJson(), HttpStatus.BAD_REQUEST);
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

    private static HttpHeaders problemJson() {
        HttpHeaders headers = new HttpHeaders();
        headers.setContentType(MediaType.APPLICATION_PROBLEM_JSON);
        return headers;
    }
}
