package dev.idgen.samples;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.reactor.netty.NettyWebServer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.ActiveProfiles;

/**
 * Every bad request of {@link BadHttpInputTest} (inherited) against the {@code reactive} profile: whether Netty,
 * WebFlux or the controller turns it down, the same status, {@code application/problem+json} and parameter as on
 * Spring MVC and Tomcat.
 */
@ActiveProfiles("reactive")
// The superclass's nested test configuration is not found from a subclass.
@Import(BadHttpInputTest.FailingEndpoint.class)
class ReactiveBadHttpInputTest extends BadHttpInputTest {

    @Autowired
    private WebServerApplicationContext context;

    /** Spring MVC is on the class path too: the inherited checks count only if WebFlux on Netty answered them. */
    @Test
    void servesOnNetty() {
        assertThat(context.getWebServer()).isInstanceOf(NettyWebServer.class);
    }
}
