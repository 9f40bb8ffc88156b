package dev.idgen.samples;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.reactor.netty.NettyWebServer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.TestPropertySource;

/**
 * {@link H2SegmentProfileTest} (inherited) with {@code reactive,h2-segment}: segments from an embedded H2 served on WebFlux. A database of its own, so its IDs count from one as the inherited checks expect.
 */
@ActiveProfiles({"reactive", "h2-segment"})
@TestPropertySource(properties = "spring.datasource.url=jdbc:h2:mem:idgen-reactive-h2-segment;DB_CLOSE_DELAY=-1")
class ReactiveH2SegmentProfileTest extends H2SegmentProfileTest {

    @Autowired
    private WebServerApplicationContext context;

    /** Spring MVC is on the class path too: the inherited checks count only if WebFlux on Netty answered them. */
    @Test
    void servesOnNetty() {
        assertThat(context.getWebServer()).isInstanceOf(NettyWebServer.class);
    }
}
