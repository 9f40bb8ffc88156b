package dev.idgen.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import dev.idgen.core.ManualTimeSource;
import dev.idgen.core.StoreUnavailableException;
import dev.idgen.core.TimeSource;
import dev.idgen.test.services.TestServices;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The ticket breaker measures its retry-after on the monotonic clock: steps of the wall clock, backwards or forwards,
 * neither keep a failed server out longer nor let it back in early. The server is a real MariaDB endpoint on a port
 * where nothing listens, so every call fails at once.
 */
class TicketBreakerClockTest {

    private static final Duration RETRY_AFTER = Duration.ofSeconds(5);

    /** Wall clock = the manual source plus a step the test sets; the monotonic clock is the manual source's alone. */
    private static final class SteppedWallClock implements TimeSource {

        private final ManualTimeSource monotonic;

        private volatile long stepMillis;

        SteppedWallClock(ManualTimeSource monotonic) {
            this.monotonic = monotonic;
        }

        @Override
        public long currentTimeMillis() {
            return monotonic.currentTimeMillis() + stepMillis;
        }

        @Override
        public long nanoTime() {
            return monotonic.nanoTime();
        }
    }

    private static HikariDataSource deadPool() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        TestServices.JdbcEndpoint mariadb = TestServices.mariadb();
        return new TestServices.JdbcEndpoint(
                        "jdbc:mariadb://127.0.0.1:" + port + "/test", mariadb.username(), mariadb.password())
                .pool(1);
    }

    private static void failOnce(TicketServer server) {
        assertThat(server.tryAcquire()).isTrue();
        assertThatThrownBy(() -> server.take("orders", 1)).isInstanceOf(StoreUnavailableException.class);
        assertThat(server.isOpen()).isTrue();
    }

    @Test
    void theWallClockMovingBackwardsDoesNotKeepTheBreakerOpen() throws Exception {
        ManualTimeSource time = new ManualTimeSource(Instant.parse("2026-01-01T00:00:00Z"));
        try (HikariDataSource pool = deadPool();
                TicketServer server = new TicketServer(
                        "dead", pool, "idgen_ticket", 0, 1, false, Duration.ofSeconds(3), RETRY_AFTER, time)) {
            failOnce(server);
            time.advance(Duration.ofHours(-1));
            assertThat(server.tryAcquire()).as("within retry-after").isFalse();
            time.advance(RETRY_AFTER.plusMillis(1));
            // The wall clock is still 55 minutes behind the failure; the breaker only counts elapsed time.
            assertThat(server.tryAcquire()).as("retry-after elapsed: one probe").isTrue();
            assertThat(server.tryAcquire()).as("only one probe").isFalse();
        }
    }

    @Test
    void theWallClockJumpingForwardsDoesNotCloseTheBreakerEarly() throws Exception {
        ManualTimeSource monotonic = new ManualTimeSource(Instant.parse("2026-01-01T00:00:00Z"));
        SteppedWallClock time = new SteppedWallClock(monotonic);
        try (HikariDataSource pool = deadPool();
                TicketServer server = new TicketServer(
                        "dead", pool, "idgen_ticket", 0, 1, false, Duration.ofSeconds(3), RETRY_AFTER, time)) {
            failOnce(server);
            time.stepMillis = Duration.ofHours(1).toMillis();
            assertThat(server.tryAcquire())
                    .as("an hour on the wall clock, no time elapsed")
                    .isFalse();
            monotonic.advance(RETRY_AFTER.minusMillis(1));
            assertThat(server.tryAcquire()).isFalse();
            monotonic.advance(Duration.ofMillis(1));
            assertThat(server.tryAcquire()).isTrue();
        }
    }
}
