package dev.idgen.samples;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.reactor.netty.NettyWebServer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.ActiveProfiles;

/**
 * {@link ClockBackwardsResponseTest} (inherited) against the {@code reactive} profile: a generator that refuses to
 * issue answers 503 problem+json with Retry-After through ReactiveIdService too, and health follows.
 */
@ActiveProfiles("reactive")
// The superclass's nested test configuration is not found from a subclass.
@Import(ClockBackwardsResponseTest.ManualClock.class)
class ReactiveClockBackwardsResponseTest extends ClockBackwardsResponseTest {

    @Autowired
    private WebServerApplicationContext context;

    /** Spring MVC is on the class path too: the inherited checks count only if WebFlux on Netty answered them. */
    @Test
    void servesOnNetty() {
        assertThat(context.getWebServer()).isInstanceOf(NettyWebServer.class);
    }
}
