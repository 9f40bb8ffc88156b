package dev.idgen.spring.boot.autoconfigure.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.core.ClockBackwardsException;
import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.StoreUnavailableException;
import dev.idgen.spring.reactive.ReactiveIdService;
import dev.idgen.spring.web.IdgenProblemHandler;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.http.codec.autoconfigure.CodecsAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableReactiveWebApplicationContext;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.webflux.autoconfigure.WebFluxAutoConfiguration;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import reactor.core.publisher.Mono;

/**
 * A user's WebFlux application, with the starter and Spring Boot's WebFlux auto-configuration, whose controller passes
 * request values to {@link ReactiveIdService}: idgen's exceptions, arriving as {@code onError}, come back as
 * problem+json, not as a 500.
 */
class WebFluxProblemDetailsTest {

    private final ReactiveWebApplicationContextRunner runner = new ReactiveWebApplicationContextRunner()
            .withConfiguration(StarterAutoConfigurations.with(
                    WebFluxAutoConfiguration.class, CodecsAutoConfiguration.class, JacksonAutoConfiguration.class))
            .withUserConfiguration(OrderController.class);

    /** The user's controller: IDs of a name the request gives, and a service of its own that fails. */
    @RestController
    static class OrderController {

        private final ReactiveIdService ids;

        OrderController(ReactiveIdService ids) {
            this.ids = ids;
        }

        @GetMapping("/ids")
        Mono<String> ids(@RequestParam String name, @RequestParam(defaultValue = "1") int count) {
            return ids.nextIds(name, count).map(Arrays::toString);
        }

        @GetMapping("/store-down")
        Mono<String> storeDown() {
            return Mono.error(new StoreUnavailableException(
                    "Ticket server t1 did not answer within 3000 ms (idgen.jdbc.timeout)"));
        }

        @GetMapping("/clock-behind")
        Mono<String> clockBehind() {
            return Mono.error(new ClockBackwardsException("The clock moved back 1500 ms", 1500));
        }

        @GetMapping("/own-check")
        Mono<String> ownCheck() {
            return Mono.error(new IllegalArgumentException("the application's own rule"));
        }
    }

    /** The user's advice for idgen's exception: it answers, not the starter's. */
    @RestControllerAdvice
    static class OwnAdvice {

        @ExceptionHandler(InvalidArgumentException.class)
        ResponseEntity<String> invalid(InvalidArgumentException e) {
            return ResponseEntity.status(HttpStatus.CONFLICT).body("own: " + e.argument());
        }
    }

    private static WebTestClient client(AssertableReactiveWebApplicationContext context) {
        return WebTestClient.bindToApplicationContext(context).build();
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "/ids?name=                 | name  | name must be 1 to 64",
                "/ids?name=a!b             | name  | but was 'a!b'",
                "/ids?name=.hidden          | name  | the first a letter or digit",
                "/ids?name=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa | name | 64 characters",
                "/ids?name=orders&count=0   | count | count must be between 1 and 10000, but was 0",
                "/ids?name=orders&count=10001 | count | but was 10001"
            })
    void aBadNameOrCountIs400ProblemJsonNamingTheArgument(String target, String argument, String detail) {
        runner.run(context -> {
            String body = client(context)
                    .get()
                    .uri(target)
                    .accept(MediaType.ALL)
                    .exchange()
                    .expectStatus()
                    .isEqualTo(400)
                    .expectHeader()
                    .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                    .expectBody(String.class)
                    .returnResult()
                    .getResponseBody();
            assertThat(body)
                    .contains("\"type\":\"https://idgen.dev/problems/invalid-parameter\"")
                    .contains("\"title\":\"Invalid parameter: " + argument + "\"")
                    .contains("\"status\":400")
                    .contains("\"parameter\":\"" + argument + "\"")
                    .contains(detail);
        });
    }

    @Test
    void aClientThatAcceptsOnlyJsonGetsTheProblemToo() {
        runner.run(context -> client(context)
                .get()
                .uri("/ids?name=")
                .accept(MediaType.APPLICATION_JSON)
                .exchange()
                .expectStatus()
                .isEqualTo(400)
                .expectHeader()
                .contentType(MediaType.APPLICATION_PROBLEM_JSON));
    }

    @Test
    void aStoreUnavailableIs503AndAClockBehindSaysWhenToRetry() {
        runner.run(context -> {
            String down = client(context)
                    .get()
                    .uri("/store-down")
                    .exchange()
                    .expectStatus()
                    .isEqualTo(503)
                    .expectHeader()
                    .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                    .expectBody(String.class)
                    .returnResult()
                    .getResponseBody();
            assertThat(down)
                    .contains("\"type\":\"https://idgen.dev/problems/generation-failed\"")
                    .contains("\"title\":\"No ID could be issued safely\"")
                    .contains("Ticket server t1 did not answer");
            String clock = client(context)
                    .get()
                    .uri("/clock-behind")
                    .exchange()
                    .expectStatus()
                    .isEqualTo(503)
                    .expectHeader()
                    .valueEquals("Retry-After", "2")
                    .expectBody(String.class)
                    .returnResult()
                    .getResponseBody();
            assertThat(clock).contains("\"type\":\"https://idgen.dev/problems/clock-backwards\"");
        });
    }

    @Test
    void aPlainIllegalArgumentExceptionOfTheApplicationIsLeftAlone() {
        runner.run(context -> client(context)
                .get()
                .uri("/own-check")
                .exchange()
                .expectStatus()
                .isEqualTo(500));
    }

    @Test
    void theApplicationsOwnExceptionHandlerWins() {
        runner.withUserConfiguration(OwnAdvice.class).run(context -> {
            assertThat(context).hasSingleBean(IdgenProblemHandler.class);
            client(context)
                    .get()
                    .uri("/ids?name=")
                    .exchange()
                    .expectStatus()
                    .isEqualTo(409)
                    .expectBody(String.class)
                    .isEqualTo("own: name");
        });
    }

    @Test
    void thePropertyTurnsItOff() {
        runner.withPropertyValues("idgen.web.problem-details.enabled=false").run(context -> {
            assertThat(context).doesNotHaveBean(IdgenProblemHandler.class);
            client(context).get().uri("/ids?name=").exchange().expectStatus().isEqualTo(500);
        });
    }
}
