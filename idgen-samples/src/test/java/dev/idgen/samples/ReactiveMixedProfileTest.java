package dev.idgen.samples;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.reactor.netty.NettyWebServer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.TestPropertySource;

/**
 * {@link MixedProfileTest} (inherited) with {@code reactive,mixed}: Snowflake, tickets and segments side by side on WebFlux, the tickets' and segments' blocking calls kept off the event loop by the starter's ReactiveIdService. A database of its own, so its IDs count from one as the inherited checks expect.
 */
@ActiveProfiles({"reactive", "mixed"})
@TestPropertySource(properties = "spring.datasource.url=jdbc:h2:mem:idgen-reactive-mixed;DB_CLOSE_DELAY=-1")
class ReactiveMixedProfileTest extends MixedProfileTest {

    @Autowired
    private WebServerApplicationContext context;

    /** Spring MVC is on the class path too: the inherited checks count only if WebFlux on Netty answered them. */
    @Test
    void servesOnNetty() {
        assertThat(context.getWebServer()).isInstanceOf(NettyWebServer.class);
    }
}
