package dev.idgen.samples;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;

/**
 * {@code idgen.max-names} over HTTP: a name past the limit is a 400 problem+json naming the parameter, and the names
 * already served carry on.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = "idgen.max-names=2")
@ActiveProfiles("h2-segment")
class MaxNamesTest {

    @Value("${local.server.port}")
    private int port;

    @Test
    void aNamePastTheLimitIsA400NamingTheParameterWhileKnownNamesCarryOn() throws Exception {
        assertThat(SampleHttp.get(port, "/ids/first").statusCode()).isEqualTo(200);
        assertThat(SampleHttp.get(port, "/ids/second").statusCode()).isEqualTo(200);
        HttpResponse<String> refused = SampleHttp.get(port, "/ids/third");
        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(400);
        assertThat(refused.headers().firstValue("Content-Type"))
                .hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));
        assertThat(refused.body()).contains("\"parameter\":\"name\"").contains("limit of 2 names");
        assertThat(SampleHttp.get(port, "/ids/first").statusCode()).isEqualTo(200);
        HttpResponse<String> health = SampleHttp.get(port, "/actuator/health");
        assertThat(health.body()).contains("\"nameCount\":2").contains("\"maxNames\":2");
    }
}
