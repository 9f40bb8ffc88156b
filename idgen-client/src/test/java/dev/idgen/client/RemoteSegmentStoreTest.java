package dev.idgen.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.core.CircuitBreaker.State;
import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.ManualTimeSource;
import dev.idgen.core.PermissionDeniedException;
import dev.idgen.core.StoreUnavailableException;
import dev.idgen.core.segment.Segment;
import dev.idgen.test.ScriptedIdgenServer;
import dev.idgen.test.ScriptedIdgenServer.Mode;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class RemoteSegmentStoreTest {

    /** Slack for a loaded machine on top of a timeout that must hold. */
    private static final Duration MARGIN = Duration.ofMillis(1500);

    private final AtomicLong sharedCounter = new AtomicLong(1000);

    private final ManualTimeSource clock = new ManualTimeSource(Instant.parse("2026-01-01T00:00:00Z"));

    private final List<AutoCloseable> closeables = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable closeable : closeables) {
            closeable.close();
        }
    }

    private ScriptedIdgenServer peer() {
        ScriptedIdgenServer peer = new ScriptedIdgenServer(sharedCounter);
        closeables.add(peer);
        return peer;
    }

    private RemoteSegmentStore.Builder builder(ScriptedIdgenServer... peers) {
        List<URI> uris = new ArrayList<>();
        for (ScriptedIdgenServer peer : peers) {
            uris.add(peer.uri());
        }
        return RemoteSegmentStore.builder()
                .servers(uris)
                // Generous: a test of what is sent or how failures count must not fail on a loaded machine's first
                // request (seen beside stress-ng). The tests of hanging servers take shortTimeouts.
                .requestTimeout(Duration.ofSeconds(5))
                .timeout(Duration.ofSeconds(10))
                .failureThreshold(2)
                .openDuration(Duration.ofSeconds(5))
                .timeSource(clock);
    }

    /** The per-request timeout of 500 ms and the overall one of 2 s that the tests of hanging servers measure. */
    private RemoteSegmentStore.Builder shortTimeouts(ScriptedIdgenServer... peers) {
        return builder(peers).requestTimeout(Duration.ofMillis(500)).timeout(Duration.ofSeconds(2));
    }

    private RemoteSegmentStore store(RemoteSegmentStore.Builder builder) {
        RemoteSegmentStore store = builder.build();
        closeables.add(store);
        return store;
    }

    @Test
    void spreadsCallsRoundRobinOverTheServers() {
        ScriptedIdgenServer a = peer();
        ScriptedIdgenServer b = peer();
        ScriptedIdgenServer c = peer();
        RemoteSegmentStore store = store(builder(a, b, c));
        long last = 1000;
        for (int i = 0; i < 30; i++) {
            Segment segment = store.allocate("orders", 100);
            assertThat(segment.size()).isEqualTo(100);
            assertThat(segment.first()).isEqualTo(last + 1);
            last = segment.last();
        }
        assertThat(List.of(a.blockRequests(), b.blockRequests(), c.blockRequests()))
                .containsExactly(10, 10, 10);
        assertThat(store.servers()).extracting(RemoteServer::successes).containsExactly(10L, 10L, 10L);
        assertThat(store.servers()).extracting(RemoteServer::state).containsOnly(State.CLOSED);
    }

    @Test
    void allocateSendsNoFloorAndAllocateAboveSendsIt() {
        ScriptedIdgenServer a = peer();
        RemoteSegmentStore store = store(builder(a));
        store.allocate("orders", 10);
        assertThat(a.lastQuery()).isEqualTo("size=10");
        Segment above = store.allocateAbove("orders", 10, 50_000);
        assertThat(a.lastQuery()).isEqualTo("size=10&above=50000");
        assertThat(above.first()).isEqualTo(50_001);
        assertThat(above.last()).isEqualTo(50_010);
    }

    @Test
    void sendsTheTokenAsABearer() {
        ScriptedIdgenServer a = peer().token("s3cret");
        RemoteSegmentStore store = store(builder(a).token("s3cret"));
        assertThat(store.allocate("orders", 5).size()).isEqualTo(5);
        assertThat(a.lastAuthorization()).isEqualTo("Bearer s3cret");
    }

    @Test
    void failsOverToTheNextServerWithinTheTimeoutWhenTheFirstHangs() {
        ScriptedIdgenServer a = peer().mode(Mode.HANG);
        ScriptedIdgenServer b = peer();
        RemoteSegmentStore store = store(shortTimeouts(a, b));
        long started = System.nanoTime();
        Segment segment = store.allocate("orders", 10);
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        assertThat(segment).isEqualTo(new Segment(1001, 1010));
        assertThat(a.blockRequests()).isEqualTo(1);
        assertThat(b.blockRequests()).isEqualTo(1);
        // The hanging server held the call for its request timeout (500 ms), no more than the overall timeout.
        assertThat(took)
                .isGreaterThanOrEqualTo(Duration.ofMillis(450))
                .isLessThan(Duration.ofSeconds(2).plus(MARGIN));
        assertThat(store.servers().get(0).failures()).isEqualTo(1);
        assertThat(store.servers().get(0).lastFailure()).contains("no answer within");
    }

    @Test
    void failsOverWhenAServerClosesTheConnection() {
        ScriptedIdgenServer a = peer().mode(Mode.CLOSE);
        ScriptedIdgenServer b = peer();
        RemoteSegmentStore store = store(builder(a, b));
        assertThat(store.allocate("orders", 10)).isEqualTo(new Segment(1001, 1010));
        assertThat(store.servers().get(0).failures()).isEqualTo(1);
        assertThat(store.servers().get(1).successes()).isEqualTo(1);
    }

    @Test
    void theBreakerOpensAfterTheThresholdThenOneTrialHalfOpensIt() throws Exception {
        ScriptedIdgenServer a = peer().mode(Mode.FAIL);
        ScriptedIdgenServer b = peer();
        RemoteSegmentStore store = store(shortTimeouts(a, b));
        RemoteServer first = store.servers().get(0);
        store.allocate("orders", 10); // starts at a: fails once, b answers
        store.allocate("orders", 10); // starts at b
        assertThat(first.state()).isEqualTo(State.CLOSED);
        store.allocate("orders", 10); // starts at a: second consecutive failure
        assertThat(first.state()).isEqualTo(State.OPEN);
        assertThat(a.blockRequests()).isEqualTo(2);

        store.allocate("orders", 10);
        store.allocate("orders", 10); // would start at a: skipped while open
        assertThat(a.blockRequests()).isEqualTo(2);

        // After the open duration one trial goes; while it is in flight the breaker is half-open.
        clock.advance(Duration.ofSeconds(5));
        a.mode(Mode.HANG);
        store.allocate("orders", 10); // starts at b
        CompletableFuture<Segment> trial = CompletableFuture.supplyAsync(() -> store.allocate("orders", 10));
        awaitTrue(() -> a.blockRequests() == 3, "the trial request reached the server");
        assertThat(first.state()).isEqualTo(State.HALF_OPEN);
        a.mode(Mode.FAIL); // the trial fails: open again, b served the call
        assertThat(trial.get(5, TimeUnit.SECONDS).size()).isEqualTo(10);
        assertThat(first.state()).isEqualTo(State.OPEN);

        clock.advance(Duration.ofSeconds(5));
        a.mode(Mode.OK);
        store.allocate("orders", 10); // starts at b
        store.allocate("orders", 10); // starts at a: the trial succeeds
        assertThat(a.blockRequests()).isEqualTo(4);
        assertThat(first.state()).isEqualTo(State.CLOSED);
    }

    @Test
    void allServersDownFailsWithinTheTimeoutNamingEachServer() {
        ScriptedIdgenServer failing = peer().mode(Mode.FAIL);
        ScriptedIdgenServer hanging = peer().mode(Mode.HANG);
        ScriptedIdgenServer stopped = peer();
        URI stoppedUri = stopped.uri();
        stopped.close();
        RemoteSegmentStore store =
                store(shortTimeouts(failing, hanging, stopped).timeout(Duration.ofSeconds(1)));
        long started = System.nanoTime();
        assertThatThrownBy(() -> store.allocate("orders", 10))
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining(failing.uri() + ": answered 500")
                .hasMessageContaining(hanging.uri() + ": no answer within")
                .hasMessageContaining(stoppedUri.toString());
        assertThat(Duration.ofNanos(System.nanoTime() - started))
                .isLessThan(Duration.ofSeconds(1).plus(MARGIN));
    }

    @Test
    void theOverallTimeoutBoundsACallOverManyHangingServers() {
        ScriptedIdgenServer a = peer().mode(Mode.HANG);
        ScriptedIdgenServer b = peer().mode(Mode.HANG);
        ScriptedIdgenServer c = peer().mode(Mode.HANG);
        RemoteSegmentStore store = store(shortTimeouts(a, b, c).timeout(Duration.ofMillis(800)));
        long started = System.nanoTime();
        assertThatThrownBy(() -> store.allocate("orders", 10))
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining("within PT0.8S");
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        assertThat(took)
                .isGreaterThanOrEqualTo(Duration.ofMillis(750))
                .isLessThan(Duration.ofMillis(800).plus(MARGIN));
        // Two requests fit (500 ms, then the 300 ms left); on a loaded machine the second may not reach its peer
        // before the time is up. The third server is never asked.
        assertThat(a.blockRequests() + b.blockRequests() + c.blockRequests()).isBetween(1, 2);
        assertThat(c.blockRequests()).isZero();
    }

    @Test
    void whenEveryBreakerIsOpenTheOneThatReopensFirstIsStillTried() {
        ScriptedIdgenServer a = peer().mode(Mode.FAIL);
        ScriptedIdgenServer b = peer().mode(Mode.FAIL);
        RemoteSegmentStore store = store(builder(a, b).failureThreshold(1));
        assertThatThrownBy(() -> store.allocate("orders", 10)).isInstanceOf(StoreUnavailableException.class);
        assertThat(store.servers()).extracting(RemoteServer::state).containsOnly(State.OPEN);
        a.mode(Mode.OK);
        b.mode(Mode.OK);
        // Both opened with the clock standing still: a, the first in order, reopens no later than b.
        assertThat(store.allocate("orders", 10).size()).isEqualTo(10);
        assertThat(a.blockRequests()).isEqualTo(2);
        assertThat(b.blockRequests()).isEqualTo(1);
        assertThat(store.servers().get(0).state()).isEqualTo(State.CLOSED);
    }

    @Test
    void recoversWhenTheServerComesBack() {
        ScriptedIdgenServer a = peer().mode(Mode.FAIL);
        RemoteSegmentStore store = store(builder(a));
        for (int i = 0; i < 3; i++) {
            assertThatThrownBy(() -> store.allocate("orders", 10)).isInstanceOf(StoreUnavailableException.class);
        }
        assertThat(store.servers().get(0).state()).isEqualTo(State.OPEN);
        a.mode(Mode.OK);
        clock.advance(Duration.ofSeconds(5));
        assertThat(store.allocate("orders", 10)).isEqualTo(new Segment(1001, 1010));
        assertThat(store.servers().get(0).state()).isEqualTo(State.CLOSED);
        assertThat(store.allocate("orders", 10)).isEqualTo(new Segment(1011, 1020));
    }

    @Test
    void aRateLimitedServerIsSkippedUntilItsRetryAfter() {
        ScriptedIdgenServer a = peer().retryAfter("30").mode(Mode.RATE_LIMITED);
        ScriptedIdgenServer b = peer();
        RemoteSegmentStore store = store(builder(a, b));
        assertThat(store.allocate("orders", 10).size()).isEqualTo(10); // a: 429, b answers
        assertThat(store.servers().get(0).rateLimited()).isTrue();
        store.allocate("orders", 10);
        store.allocate("orders", 10); // would start at a: skipped
        assertThat(a.blockRequests()).isEqualTo(1);
        assertThat(store.servers().get(0).state()).isEqualTo(State.CLOSED);
        a.mode(Mode.OK);
        clock.advance(Duration.ofSeconds(30));
        store.allocate("orders", 10);
        store.allocate("orders", 10);
        assertThat(a.blockRequests()).isEqualTo(2);
    }

    @Test
    void aRetryAfterDateIsReadAgainstTheStoresClock() {
        // 20 s after the store's clock, which is not the machine's: read against System.currentTimeMillis() (as it
        // once was) the date would be long past and the server asked again at once.
        String in20Seconds = DateTimeFormatter.RFC_1123_DATE_TIME.format(
                Instant.parse("2026-01-01T00:00:20Z").atZone(ZoneOffset.UTC));
        ScriptedIdgenServer a = peer().retryAfter(in20Seconds).mode(Mode.RATE_LIMITED);
        ScriptedIdgenServer b = peer();
        RemoteSegmentStore store = store(builder(a, b));
        assertThat(store.allocate("orders", 10).size()).isEqualTo(10); // a: 429, b answers
        RemoteServer first = store.servers().get(0);
        assertThat(first.rateLimited()).isTrue();
        clock.advance(Duration.ofSeconds(19));
        assertThat(first.rateLimited()).isTrue();
        clock.advance(Duration.ofSeconds(1));
        assertThat(first.rateLimited()).isFalse();
    }

    @Test
    void aBadRequestFailsAtOnceWithTheServersDetail() {
        ScriptedIdgenServer a = peer().refuse(400, "size must be at most 1000000", "size");
        ScriptedIdgenServer b = peer();
        RemoteSegmentStore store = store(builder(a, b));
        assertThatThrownBy(() -> store.allocate("orders", 10))
                .isInstanceOfSatisfying(
                        InvalidArgumentException.class,
                        e -> assertThat(e.argument()).isEqualTo("size"))
                .hasMessageContaining("size must be at most 1000000")
                .hasMessageContaining(a.uri().toString());
        assertThat(b.blockRequests()).isZero();
    }

    @Test
    void aWrongTokenFailsAtOnceNamingTheToken() {
        ScriptedIdgenServer a = peer().token("right");
        ScriptedIdgenServer b = peer().token("right");
        RemoteSegmentStore store = store(builder(a, b).token("wrong"));
        assertThatThrownBy(() -> store.allocate("orders", 10))
                .isInstanceOfSatisfying(RemoteRefusalException.class, e -> {
                    assertThat(e.status()).isEqualTo(401);
                    assertThat(e.detail()).isEqualTo("the bearer token is missing or unknown");
                })
                .hasMessageContaining("token");
        assertThat(b.blockRequests()).isZero();
        assertThat(store.servers().get(0).state()).isEqualTo(State.CLOSED);
    }

    @Test
    void anUnknownNameFailsAtOnce() {
        ScriptedIdgenServer a = peer().refuse(404, "no such name: orders", null);
        ScriptedIdgenServer b = peer();
        RemoteSegmentStore store = store(builder(a, b));
        assertThatThrownBy(() -> store.allocate("orders", 10))
                .isInstanceOfSatisfying(
                        RemoteRefusalException.class,
                        e -> assertThat(e.status()).isEqualTo(404))
                .hasMessageContaining("'orders'")
                .hasMessageContaining("no such name: orders");
        assertThat(b.blockRequests()).isZero();
    }

    @Test
    void aForbiddenNameFailsAtOnceAsAPermissionError() {
        ScriptedIdgenServer a = peer().refuse(403, "The client 'shop' may not use the name 'orders'", null);
        ScriptedIdgenServer b = peer();
        RemoteSegmentStore store = store(builder(a, b));
        assertThatThrownBy(() -> store.allocate("orders", 10))
                .isInstanceOfSatisfying(
                        PermissionDeniedException.class,
                        e -> assertThat(e.name()).isEqualTo("orders"))
                .hasMessageContaining("(403)")
                .hasMessageContaining("The client 'shop' may not use the name 'orders'");
        assertThat(b.blockRequests()).isZero();
        assertThat(store.servers().get(0).state()).isEqualTo(State.CLOSED);
    }

    @Test
    void aShorterBlockIsUsedAsItIs() {
        ScriptedIdgenServer shortBlocks = peer().mode(Mode.SHORT);
        RemoteSegmentStore store = store(builder(shortBlocks));
        Segment segment = store.allocateAbove("orders", 10, 5000);
        assertThat(segment.size()).isEqualTo(9);
        assertThat(segment.first()).isGreaterThan(5000);
        assertThat(store.servers().get(0).failures()).isZero();
    }

    @ParameterizedTest
    @EnumSource(
            value = Mode.class,
            names = {"MALFORMED", "WRONG_SIZE", "NOT_ABOVE", "WRONG_NAME", "OVERSIZED"})
    void aBadBlockIsAServerFaultAndNeverReturned(Mode mode) {
        ScriptedIdgenServer bad = peer().mode(mode);
        RemoteSegmentStore alone = store(builder(bad));
        assertThatThrownBy(() -> alone.allocateAbove("orders", 10, 5000))
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining(mode == Mode.OVERSIZED ? "body longer than 65536 bytes" : "not valid");
        assertThat(alone.servers().get(0).failures()).isEqualTo(1);
        assertThat(alone.servers().get(0).successes()).isZero();

        ScriptedIdgenServer good = peer();
        RemoteSegmentStore store = store(builder(bad, good));
        Segment segment = store.allocateAbove("orders", 10, 5000);
        assertThat(segment.size()).isEqualTo(10);
        assertThat(segment.first()).isGreaterThan(5000);
        assertThat(good.blockRequests()).isEqualTo(1);
    }

    @Test
    void checkAvailableAsksTheListAndReportsEachServer() {
        ScriptedIdgenServer a = peer().mode(Mode.FAIL);
        ScriptedIdgenServer b = peer();
        RemoteSegmentStore store = store(builder(a, b));
        store.checkAvailable();
        assertThat(b.listRequests()).isEqualTo(1);
        b.mode(Mode.FAIL);
        assertThatThrownBy(() -> store.checkAvailable(Duration.ofMillis(700)))
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining(a.uri() + ": answered 500")
                .hasMessageContaining(b.uri() + ": answered 500");
        // A health check moves no breaker and counts nothing.
        assertThat(store.servers()).extracting(RemoteServer::failures).containsOnly(0L);
    }

    @Test
    void aClosedStoreRefuses() {
        RemoteSegmentStore store = store(builder(peer()));
        store.close();
        assertThatThrownBy(() -> store.allocate("orders", 1))
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining("closed");
    }

    @Test
    void theBuilderNamesTheSettingItRefuses() {
        URI ok = URI.create("http://127.0.0.1:1");
        assertRefused(RemoteSegmentStore.builder(), "servers", "at least one");
        assertRefused(RemoteSegmentStore.builder().servers(URI.create("ftp://idgen:21")), "servers", "servers[0]");
        assertRefused(
                RemoteSegmentStore.builder().servers(ok, URI.create("http://idgen:8080?x=1")),
                "servers",
                "servers[1] has a query");
        assertRefused(RemoteSegmentStore.builder().servers(URI.create("http:/relative")), "servers", "no host");
        assertRefused(RemoteSegmentStore.builder().servers(ok).token("a b"), "token", "printable");
        assertRefused(RemoteSegmentStore.builder().servers(ok).timeout(Duration.ZERO), "timeout", "more than 0");
        assertRefused(
                RemoteSegmentStore.builder().servers(ok).connectTimeout(Duration.ofMillis(-1)),
                "connectTimeout",
                "more than 0");
        assertRefused(
                RemoteSegmentStore.builder().servers(ok).requestTimeout(Duration.ofSeconds(4)),
                "requestTimeout",
                "must not exceed timeout");
        assertRefused(RemoteSegmentStore.builder().servers(ok).failureThreshold(0), "failureThreshold", "between 1");
        assertRefused(
                RemoteSegmentStore.builder().servers(ok).openDuration(Duration.ofSeconds(-1)),
                "openDuration",
                "between 0");
        try (RemoteSegmentStore store = RemoteSegmentStore.builder()
                .servers(URI.create("HTTPS://idgen-1:8443/base/"))
                .build()) {
            assertThat(store.servers().get(0).uri()).isEqualTo(URI.create("HTTPS://idgen-1:8443/base/"));
            assertThat(store.timeout()).isEqualTo(Duration.ofSeconds(3));
        }
    }

    private static void assertRefused(RemoteSegmentStore.Builder builder, String argument, String message) {
        assertThatThrownBy(builder::build)
                .isInstanceOfSatisfying(
                        InvalidArgumentException.class,
                        e -> assertThat(e.argument()).isEqualTo(argument))
                .hasMessageContaining(message);
    }

    private static void awaitTrue(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("Timed out waiting until " + what);
            }
            Thread.onSpinWait();
            Thread.sleep(5);
        }
    }
}
