package dev.idgen.spring.boot.autoconfigure.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.core.ClockBackwardsException;
import dev.idgen.core.IdService;
import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.StoreUnavailableException;
import dev.idgen.spring.web.IdgenProblemHandler;
import jakarta.servlet.ServletException;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.http.converter.autoconfigure.HttpMessageConvertersAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableWebApplicationContext;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.webmvc.autoconfigure.WebMvcAutoConfiguration;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import org.springframework.test.web.servlet.request.MockMvcRequestBuilders;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * A user's Spring MVC application, with the starter and Spring Boot's web auto-configuration, whose controller passes
 * request values to {@link IdService}: idgen's exceptions come back as problem+json, not as a 500.
 */
class MvcProblemDetailsTest {

    private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
            .withConfiguration(StarterAutoConfigurations.with(
                    WebMvcAutoConfiguration.class,
                    HttpMessageConvertersAutoConfiguration.class,
                    JacksonAutoConfiguration.class))
            .withUserConfiguration(OrderController.class);

    /** The user's controller: IDs of a name the request gives, and a service of its own that fails. */
    @RestController
    static class OrderController {

        private final IdService ids;

        OrderController(IdService ids) {
            this.ids = ids;
        }

        @GetMapping("/ids")
        String ids(@RequestParam String name, @RequestParam(defaultValue = "1") int count) {
            return Arrays.toString(ids.nextIds(name, count));
        }

        @GetMapping("/store-down")
        String storeDown() {
            throw new StoreUnavailableException("Ticket server t1 did not answer within 3000 ms (idgen.jdbc.timeout)");
        }

        @GetMapping("/clock-behind")
        String clockBehind() {
            throw new ClockBackwardsException("The clock moved back 1500 ms", 1500);
        }

        @GetMapping("/own-check")
        String ownCheck() {
            throw new IllegalArgumentException("the application's own rule");
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

    private static MockMvc mvc(AssertableWebApplicationContext context) {
        return MockMvcBuilders.webAppContextSetup(context).build();
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
            MvcResult result = mvc(context)
                    .perform(MockMvcRequestBuilders.get(target).accept(MediaType.ALL))
                    .andReturn();
            assertThat(result.getResponse().getStatus()).isEqualTo(400);
            assertThat(result.getResponse().getContentType()).isEqualTo("application/problem+json");
            assertThat(result.getResponse().getContentAsString())
                    .contains("\"type\":\"https://idgen.dev/problems/invalid-parameter\"")
                    .contains("\"title\":\"Invalid parameter: " + argument + "\"")
                    .contains("\"status\":400")
                    .contains("\"parameter\":\"" + argument + "\"")
                    .contains(detail);
        });
    }

    @Test
    void aClientThatAcceptsOnlyJsonGetsTheProblemToo() {
        runner.run(context -> {
            MvcResult result = mvc(context)
                    .perform(MockMvcRequestBuilders.get("/ids?name=").accept(MediaType.APPLICATION_JSON))
                    .andReturn();
            assertThat(result.getResponse().getStatus()).isEqualTo(400);
            assertThat(result.getResponse().getContentType()).isEqualTo("application/problem+json");
        });
    }

    @Test
    void aStoreUnavailableIs503AndAClockBehindSaysWhenToRetry() {
        runner.run(context -> {
            MvcResult down = mvc(context)
                    .perform(MockMvcRequestBuilders.get("/store-down"))
                    .andReturn();
            assertThat(down.getResponse().getStatus()).isEqualTo(503);
            assertThat(down.getResponse().getContentType()).isEqualTo("application/problem+json");
            assertThat(down.getResponse().getContentAsString())
                    .contains("\"type\":\"https://idgen.dev/problems/generation-failed\"")
                    .contains("\"title\":\"No ID could be issued safely\"")
                    .contains("Ticket server t1 did not answer");
            MvcResult clock = mvc(context)
                    .perform(MockMvcRequestBuilders.get("/clock-behind"))
                    .andReturn();
            assertThat(clock.getResponse().getStatus()).isEqualTo(503);
            assertThat(clock.getResponse().getHeader("Retry-After")).isEqualTo("2");
            assertThat(clock.getResponse().getContentAsString())
                    .contains("\"type\":\"https://idgen.dev/problems/clock-backwards\"");
        });
    }

    @Test
    void aPlainIllegalArgumentExceptionOfTheApplicationIsLeftAlone() {
        runner.run(context -> assertThatThrownBy(() -> mvc(context).perform(MockMvcRequestBuilders.get("/own-check")))
                .isInstanceOf(ServletException.class)
                .rootCause()
                .isExactlyInstanceOf(IllegalArgumentException.class));
    }

    @Test
    void theApplicationsOwnExceptionHandlerWins() {
        runner.withUserConfiguration(OwnAdvice.class).run(context -> {
            assertThat(context).hasSingleBean(IdgenProblemHandler.class);
            MvcResult result = mvc(context)
                    .perform(MockMvcRequestBuilders.get("/ids?name="))
                    .andReturn();
            assertThat(result.getResponse().getStatus()).isEqualTo(409);
            assertThat(result.getResponse().getContentAsString()).isEqualTo("own: name");
        });
    }

    @Test
    void thePropertyTurnsItOff() {
        runner.withPropertyValues("idgen.web.problem-details.enabled=false").run(context -> {
            assertThat(context).doesNotHaveBean(IdgenProblemHandler.class);
            assertThatThrownBy(() -> mvc(context).perform(MockMvcRequestBuilders.get("/ids?name=")))
                    .isInstanceOf(ServletException.class)
                    .rootCause()
                    .isInstanceOf(InvalidArgumentException.class);
        });
    }
}
