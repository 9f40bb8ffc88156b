package dev.idgen.samples;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Bad requests over a raw socket, exactly as sent: whether Tomcat, Spring MVC or the controller turns them down, the
 * answer is {@code application/problem+json} (RFC 9457) and names the parameter at fault.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class BadHttpInputTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Value("${local.server.port}")
    private int port;

    static Stream<Arguments> badRequests() {
        return Stream.of(
                // Longer than Tomcat reads (8KB request line): no path is known, so no parameter can be named.
                Arguments.of("GET", "/ids/" + "a".repeat(10_000), 400, null),
                Arguments.of("GET", "/ids/decode/" + "9".repeat(10_000), 400, null),
                // Turned down by Tomcat before any servlet: NUL, encoded slash, broken escape.
                Arguments.of("GET", "/ids/a%00b", 400, "name"),
                Arguments.of("GET", "/ids/..%2Fx", 400, "name"),
                Arguments.of("GET", "/ids/a%2Fb", 400, "name"),
                Arguments.of("GET", "/ids/a%zz", 400, "name"),
                Arguments.of("GET", "/ids/decode/1%00", 400, "id"),
                Arguments.of("GET", "/ids/a%00b/decode/1", 400, "name"),
                Arguments.of("GET", "/ids/x/decode/1%00", 400, "id"),
                Arguments.of("GET", "/ids/x/decode/abc", 400, "id"),
                Arguments.of("GET", "/ids/x%5C", 400, "name"),
                Arguments.of("GET", "/ids/readable/decode/%00", 400, null),
                Arguments.of("GET", "/ids/a\\b", 400, null),
                // Turned down by Tomcat inside the application: a broken escape in the query, TRACE.
                Arguments.of("GET", "/ids/x?count=%zz", 400, null),
                Arguments.of("TRACE", "/ids/x", 405, null),
                // Reach the controller.
                Arguments.of("GET", "/ids/%2E%2E", 400, "name"),
                Arguments.of("GET", "/ids/.hidden", 400, "name"),
                Arguments.of("GET", "/ids/x?count=", 400, "count"),
                Arguments.of("GET", "/ids/x?count=%20", 400, "count"),
                Arguments.of("GET", "/ids/x?count=%00", 400, "count"),
                Arguments.of("GET", "/ids/x?count=1&count=2", 400, "count"),
                Arguments.of("GET", "/ids/%F0%9F%98%80", 400, "name"),
                Arguments.of("GET", "/ids/" + "a".repeat(5_000), 400, "name"),
                Arguments.of("GET", "/ids/decode/" + "9".repeat(5_000), 400, "id"),
                // No such resource or method.
                Arguments.of("GET", "/nothing-here", 404, null),
                Arguments.of("GET", "/ids/", 404, null),
                Arguments.of("GET", "/actuator/nothing-here", 404, null),
                Arguments.of("GET", "/actuator/metrics/no.such.meter", 404, null),
                Arguments.of("GET", "/actuator/health/no-such-component", 404, null),
                Arguments.of("POST", "/actuator/health", 405, null),
                Arguments.of("BREW", "/ids/x", 405, null),
                Arguments.of("GET", "/ids/decode/1/more", 404, null),
                Arguments.of("POST", "/ids/orders", 405, null),
                Arguments.of("DELETE", "/ids/decode/1", 405, null));
    }

    @ParameterizedTest(name = "{0} {1} -> {2} naming {3}")
    @MethodSource("badRequests")
    void answersProblemJsonNamingTheParameter(String method, String target, int status, String parameter)
            throws Exception {
        RawHttp.Response response = RawHttp.send(port, method, target, "Accept: */*");
        assertProblem(response, status, parameter);
    }

    /** A browser asks for HTML first; the API still answers problem+json rather than an HTML error page. */
    @Test
    void answersProblemJsonEvenWhenHtmlIsPreferred() throws Exception {
        String html = "Accept: text/html,application/xhtml+xml;q=0.9,*/*;q=0.8";
        assertProblem(RawHttp.send(port, "GET", "/nothing-here", html), 404, null);
        assertProblem(RawHttp.send(port, "GET", "/ids/a%00b", html), 400, "name");
        assertProblem(RawHttp.send(port, "GET", "/ids/x?count=", html), 400, "count");
    }

    @Test
    void anEmptyCountIsRejectedWhileAMissingCountMeansOne() throws Exception {
        RawHttp.Response one = RawHttp.send(port, "GET", "/ids/x", "Accept: */*");
        assertThat(one.status()).isEqualTo(200);
        assertThat(JSON.readTree(one.body()).size()).isEqualTo(1);
        RawHttp.Response empty = RawHttp.send(port, "GET", "/ids/x?count=", "Accept: */*");
        assertProblem(empty, 400, "count");
        assertThat(JSON.readTree(empty.body()).get("detail").asString())
                .isEqualTo("count must be a whole number between 1 and 10000, but was ''");
    }

    @Test
    void aDotDotNameIsRejectedByTheNameRule() throws Exception {
        RawHttp.Response response = RawHttp.send(port, "GET", "/ids/%2E%2E", "Accept: */*");
        assertProblem(response, 400, "name");
        assertThat(JSON.readTree(response.body()).get("detail").asString())
                .isEqualTo(
                        "name must be 1 to 64 characters of [A-Za-z0-9._:-], the first a letter or digit, but was '..'");
    }

    @Test
    void aLongNameOrIdIsShownShortened() throws Exception {
        RawHttp.Response name = RawHttp.send(port, "GET", "/ids/" + "a".repeat(5_000), "Accept: */*");
        assertProblem(name, 400, "name");
        assertThat(JSON.readTree(name.body()).get("detail").asString())
                .startsWith("name must be 1 to 64 characters of [A-Za-z0-9._:-]")
                .hasSizeLessThan(300);
        RawHttp.Response id = RawHttp.send(port, "GET", "/ids/decode/" + "9".repeat(5_000), "Accept: */*");
        assertProblem(id, 400, "id");
        assertThat(JSON.readTree(id.body()).get("detail").asString())
                .startsWith("id must be a positive 64-bit decimal number, but was '999")
                .hasSizeLessThan(300);
    }

    @Test
    void aRequestLineTooLongToReadSaysWhichLimit() throws Exception {
        RawHttp.Response response = RawHttp.send(port, "GET", "/ids/" + "a".repeat(10_000), "Accept: */*");
        assertProblem(response, 400, null);
        assertThat(JSON.readTree(response.body()).get("detail").asString())
                .contains("server.max-http-request-header-size");
    }

    @Test
    void tomcatRejectionsNameTheParameterWithTheRule() throws Exception {
        RawHttp.Response nul = RawHttp.send(port, "GET", "/ids/a%00b", "Accept: */*");
        assertProblem(nul, 400, "name");
        assertThat(JSON.readTree(nul.body()).get("detail").asString())
                .isEqualTo(
                        "name must be 1 to 64 characters of [A-Za-z0-9._:-], the first a letter or digit, but was 'a\u0000b'");
        RawHttp.Response slash = RawHttp.send(port, "GET", "/ids/..%2Fx", "Accept: */*");
        assertProblem(slash, 400, "name");
        assertThat(JSON.readTree(slash.body()).get("detail").asString())
                .isEqualTo(
                        "name must be 1 to 64 characters of [A-Za-z0-9._:-], the first a letter or digit, but was '../x'");
    }

    /** An exception no handler knows goes to /error: a 500 problem without the exception's message. */
    @Test
    void anUnhandledFailureIs500ProblemJsonWithoutInternals() throws Exception {
        RawHttp.Response response = RawHttp.send(port, "GET", "/test/failing", "Accept: text/html");
        assertProblem(response, 500, null);
        assertThat(response.body()).doesNotContain("secret internals").doesNotContain("IllegalStateException");
    }

    @Test
    void anErrorForwardedToTheErrorPageNamesTheFailedRequestAsInstance() throws Exception {
        RawHttp.Response response = RawHttp.send(port, "GET", "/ids/x?count=%zz", "Accept: */*");
        assertProblem(response, 400, null);
        assertThat(JSON.readTree(response.body()).get("instance").asString()).isEqualTo("/ids/x");
    }

    @Test
    void theErrorPathItselfIsNoResource() throws Exception {
        assertProblem(RawHttp.send(port, "GET", "/error", "Accept: */*"), 404, null);
    }

    private static void assertProblem(RawHttp.Response response, int status, String parameter) {
        assertThat(response.status()).as(response.body()).isEqualTo(status);
        assertThat(response.contentType()).as(response.body()).isEqualTo("application/problem+json");
        JsonNode problem = JSON.readTree(response.body());
        assertThat(problem.get("status").asInt()).isEqualTo(status);
        assertThat(problem.hasNonNull("type")).as(response.body()).isTrue();
        assertThat(problem.get("title").asString()).as(response.body()).isNotBlank();
        assertThat(problem.get("detail").asString()).as(response.body()).isNotBlank();
        if (parameter == null) {
            assertThat(problem.has("parameter")).as(response.body()).isFalse();
        } else {
            assertThat(problem.path("parameter").asString()).as(response.body()).isEqualTo(parameter);
        }
    }

    @TestConfiguration(proxyBeanMethods = false)
    static class FailingEndpoint {

        @Bean
        Failing failing() {
            return new Failing();
        }
    }

    @RestController
    static class Failing {

        @GetMapping("/test/failing")
        String fail() {
            throw new IllegalStateException("secret internals");
        }
    }
}
