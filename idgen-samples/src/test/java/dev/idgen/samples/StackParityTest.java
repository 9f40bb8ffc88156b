package dev.idgen.samples;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The sample on Spring MVC and on WebFlux side by side, each bad request of {@link BadHttpInputTest} sent to both: the
 * same status, content type and problem members ({@code type}, {@code title}, {@code status}, {@code parameter}),
 * so a client cannot tell the stacks apart by their errors. Only {@code detail} may word a server's own limit
 * differently (Tomcat's and Netty's settings have different names).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StackParityTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private ConfigurableApplicationContext mvc;

    private ConfigurableApplicationContext webFlux;

    @BeforeAll
    void startBothStacks() {
        mvc = start(new Class<?>[] {IdServiceApplication.class}, "default");
        // On Netty loops of its own (SeparateNettyLoopsInTests): closing it leaves the other test contexts' servers up.
        webFlux = start(new Class<?>[] {IdServiceApplication.class}, "reactive");
    }

    private static ConfigurableApplicationContext start(Class<?>[] sources, String profile) {
        return new SpringApplicationBuilder(sources)
                .run(
                        "--spring.profiles.active=" + profile,
                        "--server.port=0",
                        "--spring.datasource.url=jdbc:h2:mem:parity-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
    }

    @AfterAll
    void stop() {
        if (webFlux != null) {
            webFlux.close();
        }
        if (mvc != null) {
            mvc.close();
        }
    }

    private static int port(ConfigurableApplicationContext app) {
        return ((WebServerApplicationContext) app).getWebServer().getPort();
    }

    static java.util.stream.Stream<org.junit.jupiter.params.provider.Arguments> badRequests() {
        return BadHttpInputTest.badRequests();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("badRequests")
    void bothStacksAnswerTheSameProblem(String method, String target, int status, String parameter) throws Exception {
        RawHttp.Response tomcat = RawHttp.send(port(mvc), method, target, "Accept: */*");
        RawHttp.Response netty = RawHttp.send(port(webFlux), method, target, "Accept: */*");
        assertThat(netty.status()).as(netty.body()).isEqualTo(tomcat.status()).isEqualTo(status);
        assertThat(netty.contentType()).isEqualTo(tomcat.contentType()).isEqualTo("application/problem+json");
        JsonNode fromTomcat = JSON.readTree(tomcat.body());
        JsonNode fromNetty = JSON.readTree(netty.body());
        for (String member : new String[] {"type", "title", "status", "parameter"}) {
            assertThat(fromNetty.get(member))
                    .as("%s: Tomcat %s, Netty %s", member, tomcat.body(), netty.body())
                    .isEqualTo(fromTomcat.get(member));
        }
    }
}
