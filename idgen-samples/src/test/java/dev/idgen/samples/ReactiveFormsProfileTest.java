package dev.idgen.samples;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.reactor.netty.NettyWebServer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.TestPropertySource;

/**
 * {@link FormsProfileTest} (inherited) with {@code reactive,forms}: the ID forms on WebFlux, where a form that draws
 * on a store (the daily invoice numbers' tickets) runs off the event loop. A database of its own, so its ticket
 * numbers count from one as the inherited check expects.
 */
@ActiveProfiles({"reactive", "forms"})
@TestPropertySource(properties = "spring.datasource.url=jdbc:h2:mem:idgen-reactive-forms;DB_CLOSE_DELAY=-1")
class ReactiveFormsProfileTest extends FormsProfileTest {

    @Autowired
    private WebServerApplicationContext context;

    /** Spring MVC is on the class path too: the inherited checks count only if WebFlux on Netty answered them. */
    @Test
    void servesOnNetty() {
        assertThat(context.getWebServer()).isInstanceOf(NettyWebServer.class);
    }
}
