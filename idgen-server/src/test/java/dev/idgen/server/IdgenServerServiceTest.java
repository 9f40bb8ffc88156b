package dev.idgen.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.core.IdService;
import dev.idgen.core.form.IdForm;
import dev.idgen.core.form.IdForms;
import dev.idgen.core.segment.InMemorySegmentStore;
import dev.idgen.core.segment.Segment;
import dev.idgen.core.segment.SegmentIdService;
import dev.idgen.core.segment.SegmentStore;
import dev.idgen.server.ServerRefusal.Reason;
import dev.idgen.server.access.NanoClock;
import dev.idgen.server.access.ServerClients;
import dev.idgen.server.metrics.ServerMeters;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The service as the gRPC transport sees it, without HTTP: blocks from a segment store that the test can make
 * unavailable, refusals with their reasons, and the meters tagged with the caller's transport.
 */
class IdgenServerServiceTest {

    /** The failover jump the stores are taken to have: a client's floor may lie this far above the IDs issued. */
    private static final long JUMP = 1_000_000;

    /** Where requests wait for a store; shared by the test's services, as one server's are. */
    private static final StoreWork STORE_WORK = new StoreWork(4, 4);

    /** Every name's form is the plain number, as with no form configured. */
    private static final IdForms NUMBERS = name -> form("number");

    /** A form by its name alone: the service only asks which it is; this test serves no IDs through it. */
    private static IdForm form(String form) {
        return new IdForm() {

            @Override
            public String generator() {
                return "default";
            }

            @Override
            public String form() {
                return form;
            }

            @Override
            public String next() {
                throw new UnsupportedOperationException("not in this test");
            }

            @Override
            public String[] next(int count) {
                throw new UnsupportedOperationException("not in this test");
            }

            @Override
            public Map<String, Object> decode(String text) {
                throw new UnsupportedOperationException("not in this test");
            }
        };
    }

    private final InMemorySegmentStore store = new InMemorySegmentStore();

    private final SegmentIdService segments = SegmentIdService.builder(store).build();

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    private final IdgenServerService service = service(segments, NUMBERS);

    /** A service over {@code ids} for the client {@code svc}, with the test's limits. */
    private IdgenServerService service(IdService ids, IdForms forms) {
        return service(
                ids,
                forms,
                new ServerClients(properties(), Set.of("default"), NanoClock.system()),
                STORE_WORK,
                Duration.ofSeconds(5));
    }

    private IdgenServerService service(
            IdService ids, IdForms forms, ServerClients clients, StoreWork work, Duration timeout) {
        return new IdgenServerService(ids, forms, clients, new ServerMeters(registry), 100, 1000, JUMP, work, timeout);
    }

    @AfterEach
    void close() {
        segments.close();
    }

    private static IdgenServerProperties properties() {
        IdgenServerProperties properties = new IdgenServerProperties();
        IdgenServerProperties.Client client = new IdgenServerProperties.Client();
        client.setTokenHash(ServerHttp.tokenHash("grpc-token"));
        client.setNames(List.of("orders"));
        properties.getClients().put("svc", client);
        return properties;
    }

    @Test
    void blocksComeFromTheStoreAboveTheFloorAndAreMeteredPerTransport() {
        Caller caller = service.authenticate("bearer grpc-token", "grpc");
        assertThat(caller).isEqualTo(new Caller("svc", "grpc"));

        Segment first = service.takeBlock(caller, "orders", 10, 0);
        Segment above = service.takeBlock(caller, "orders", 5, 1_000);
        assertThat(first).isEqualTo(new Segment(1, 10));
        assertThat(above).isEqualTo(new Segment(1_001, 1_005));
        // The server's own sequence of the name draws from the same store: above every block.
        assertThat(segments.nextId("orders")).isGreaterThan(above.last());

        assertThat(registry.get("idgen.server.block.ids")
                        .tags("client", "svc", "name", "orders")
                        .counter()
                        .count())
                .isEqualTo(15);
        assertThat(registry.get("idgen.server.requests")
                        .tags("client", "svc", "name", "orders", "operation", "block", "transport", "grpc")
                        .tag("outcome", "ok")
                        .timer()
                        .count())
                .isEqualTo(2);
    }

    @Test
    void anUnavailableStoreIsUnavailableNotAnError() {
        Caller caller = service.authenticate("Bearer grpc-token", "grpc");
        store.setAvailable(false);
        assertRefused(() -> service.takeBlock(caller, "orders", 10, 0), Reason.UNAVAILABLE, null);
        // The store's own message (hosts, users, SQL states) stays in the server's log.
        assertThatThrownBy(() -> service.takeBlock(caller, "orders", 10, 0))
                .hasMessageStartingWith("The ID store cannot answer now; another server may (incident ")
                .hasMessageNotContaining("InMemorySegmentStore");
        assertThat(registry.get("idgen.server.requests")
                        .tags("operation", "block", "outcome", "unavailable")
                        .timer()
                        .count())
                .isEqualTo(2);
        store.setAvailable(true);
        assertThat(service.takeBlock(caller, "orders", 10, 0).size()).isEqualTo(10);
    }

    @Test
    void refusals() {
        Caller caller = service.authenticate("Bearer grpc-token", "grpc");
        assertRefused(() -> service.authenticate(null, "grpc"), Reason.UNAUTHENTICATED, null);
        assertRefused(() -> service.authenticate("Bearer other", "grpc"), Reason.UNAUTHENTICATED, null);
        assertRefused(
                () -> service.takeBlock(new Caller("ghost", "grpc"), "orders", 1, 0), Reason.UNAUTHENTICATED, null);
        assertRefused(() -> service.takeBlock(caller, "invoices", 1, 0), Reason.FORBIDDEN, null);
        assertRefused(() -> service.takeBlock(caller, "orders", 1001, 0), Reason.BAD_ARGUMENT, "size");
        assertRefused(() -> service.takeBlock(caller, "orders", 10, Long.MAX_VALUE - 5), Reason.BAD_ARGUMENT, "above");
        // Near 2^63 the shared counter would leave no room for anyone's next block of the name.
        assertRefused(
                () -> service.takeBlock(caller, "orders", 10, IdgenServerService.HIGHEST_ID - 9),
                Reason.BAD_ARGUMENT,
                "above");
        assertRefused(() -> service.nextIds(caller, "orders", 101, null), Reason.BAD_ARGUMENT, "count");
        assertRefused(() -> service.decode(caller, "bad name", "1"), Reason.BAD_ARGUMENT, "name");
        assertThat(registry.get("idgen.server.requests")
                        .tags("name", "invalid", "operation", "decode", "outcome", "bad_argument")
                        .timer()
                        .count())
                .isEqualTo(1);
    }

    @Test
    void aBlockAtOrBelowAboveFromAStoreThatCannotKeepAFloorIsRefused() {
        // As the Redis store answers: it ignores the floor, and a block at or below it would repeat the caller's IDs.
        SegmentStore floorless = (name, step) -> new Segment(1, step);
        try (SegmentIdService floorlessSegments =
                SegmentIdService.builder(floorless).build()) {
            IdgenServerService floorlessService = service(floorlessSegments, NUMBERS);
            Caller caller = floorlessService.authenticate("Bearer grpc-token", "grpc");
            assertThat(floorlessService.takeBlock(caller, "orders", 10, 0)).isEqualTo(new Segment(1, 10));
            assertRefused(() -> floorlessService.takeBlock(caller, "orders", 10, 5), Reason.UNAVAILABLE, null);
        }
    }

    @Test
    void anAboveNoClientCanHoldIsRefusedAndTheNameStaysUsableForEveryone() {
        Caller caller = service.authenticate("Bearer grpc-token", "grpc");
        assertThat(service.takeBlock(caller, "orders", 10, 0)).isEqualTo(new Segment(1, 10));

        // The request that used to end the name: one block just fits below the limit, so only the range check passed.
        assertRefused(
                () -> service.takeBlock(caller, "orders", 1, IdgenServerService.HIGHEST_ID - 1),
                Reason.BAD_ARGUMENT,
                "above");
        // Past what a client can hold: the IDs issued (a few after the server's probes), the jump, one block.
        assertRefused(() -> service.takeBlock(caller, "orders", 1, 100 + JUMP + 1000), Reason.BAD_ARGUMENT, "above");

        Segment next = service.takeBlock(caller, "orders", 10, 10);
        assertThat(next.last()).isLessThan(100);
        assertThat(segments.nextId("orders")).isBetween(next.last() + 1, 10_000L);
        assertThat(registry.get(ServerMeters.NAME_REMAINING)
                        .tag("name", "orders")
                        .gauge()
                        .value())
                .isEqualTo((double) (IdgenServerService.HIGHEST_ID - next.last()));
    }

    @Test
    void aFloorAboveTheStoreIsServedWithinTheJumpAndAfterAnotherServerMovedTheCounter() {
        Caller caller = service.authenticate("Bearer grpc-token", "grpc");
        // After a failover to a replica that lagged, a client's floor lies above the store's counter (here 0).
        assertThat(service.takeBlock(caller, "orders", 10, JUMP)).isEqualTo(new Segment(JUMP + 1, JUMP + 10));
        // Such a floor passes once a minute per name: a client repeating it cannot walk the name up to 2^63.
        assertRefused(() -> service.takeBlock(caller, "orders", 10, 2 * JUMP), Reason.UNAVAILABLE, null);
        // Another server moved the counter far on, unseen by this one: its store is asked before 'above' is judged.
        store.allocateAbove("orders", 10, 50 * JUMP);
        Segment block = service.takeBlock(caller, "orders", 10, 50 * JUMP + 500);
        assertThat(block.first()).isEqualTo(50 * JUMP + 501);
    }

    @Test
    void aLargerBlockThanAskedIsCutToTheSizeAndNoBlockPastTheLimitLeaves() {
        // As an interleaved store answers with a leftover of a larger request: more IDs than this one asked for.
        long[] first = {1};
        long[] size = {100};
        SegmentStore generous = (name, step) -> new Segment(first[0], first[0] + size[0] - 1);
        try (SegmentIdService generousSegments =
                SegmentIdService.builder(generous).build()) {
            IdgenServerService generousService = service(generousSegments, NUMBERS);
            Caller caller = generousService.authenticate("Bearer grpc-token", "grpc");
            assertThat(generousService.takeBlock(caller, "orders", 10, 0)).isEqualTo(new Segment(1, 10));

            first[0] = IdgenServerService.HIGHEST_ID - 4;
            size[0] = 10;
            assertRefused(() -> generousService.takeBlock(caller, "orders", 10, 0), Reason.UNAVAILABLE, null);
        }
    }

    @Test
    void whileTheStoreHangsNamesInMemoryAnswerAndWaitsForItAreBounded() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        InMemorySegmentStore answering = new InMemorySegmentStore();
        SegmentStore hanging = (name, step) -> {
            if (name.equals("slow")) {
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return answering.allocate(name, step);
        };
        IdgenServerProperties everyName = new IdgenServerProperties();
        IdgenServerProperties.Client client = new IdgenServerProperties.Client();
        client.setTokenHash(ServerHttp.tokenHash("grpc-token"));
        everyName.getClients().put("svc", client);
        IdgenServerProperties.Client second = new IdgenServerProperties.Client();
        second.setTokenHash(ServerHttp.tokenHash("other-token"));
        everyName.getClients().put("other", second);
        ExecutorService callers = Executors.newFixedThreadPool(3);
        try (StoreWork oneThread = new StoreWork(2, 2);
                SegmentIdService hangingSegments =
                        SegmentIdService.builder(hanging).build()) {
            IdgenServerService hangingService = service(
                    hangingSegments,
                    NUMBERS,
                    new ServerClients(everyName, Set.of("default"), NanoClock.system()),
                    oneThread,
                    Duration.ofMillis(300));
            Caller caller = hangingService.authenticate("Bearer grpc-token", "http");
            assertThat(hangingService.nextIds(caller, "warm", 1, null).numbers())
                    .hasSize(1);
            awaitInFlight(oneThread, 0); // the warm-up's first load ran on the store thread

            // Two requests of svc wait for the hanging store: its half of the two threads and two queued calls.
            List<Future<?>> waiting = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                waiting.add(callers.submit(() -> hangingService.nextIds(caller, "slow", 1, null)));
            }
            awaitInFlight(oneThread, 2);
            // Its third is refused at once, not queued; a name whose IDs are in memory is served as if nothing hung.
            assertRefused(() -> hangingService.nextIds(caller, "slow", 1, null), Reason.OVERLOADED, null);
            assertRefused(() -> hangingService.takeBlock(caller, "blocks", 10, 0), Reason.OVERLOADED, null);
            // Another client still has its half: its request reaches the store (and waits for it like the others).
            Caller other = hangingService.authenticate("Bearer other-token", "http");
            waiting.add(callers.submit(() -> hangingService.nextIds(other, "slow", 1, null)));
            awaitInFlight(oneThread, 3);
            assertThat(hangingService.nextIds(caller, "warm", 5, null).numbers())
                    .hasSize(5);
            // The three waiting end within the request timeout, refused as unavailable; their IDs are never handed out.
            for (Future<?> call : waiting) {
                assertThatThrownBy(() -> call.get(1, TimeUnit.MINUTES))
                        .cause()
                        .isInstanceOfSatisfying(
                                ServerRefusal.class,
                                refusal -> assertThat(refusal.reason()).isEqualTo(Reason.UNAVAILABLE));
            }
            // Once the store answers, the calls it held leave the pool, and the name is served again.
            release.countDown();
            awaitInFlight(oneThread, 0);
            assertThat(hangingService.nextIds(caller, "slow", 1, null).numbers())
                    .hasSize(1);
        } finally {
            release.countDown();
            callers.shutdownNow();
        }
    }

    @Test
    void aClientAllowedEveryNameHasACapOfNamesInUseAndOnlyItIsRefused() {
        AtomicLong nanos = new AtomicLong();
        IdgenServerProperties capped = new IdgenServerProperties();
        IdgenServerProperties.Client greedy = new IdgenServerProperties.Client();
        greedy.setTokenHash(ServerHttp.tokenHash("greedy-token"));
        greedy.setMaxNames(2);
        capped.getClients().put("greedy", greedy);
        IdgenServerProperties.Client other = new IdgenServerProperties.Client();
        other.setTokenHash(ServerHttp.tokenHash("other-token"));
        capped.getClients().put("other", other);
        capped.setNameIdle(Duration.ofMinutes(10));
        ServerClients clients = new ServerClients(capped, Set.of("default"), nanos::get);
        IdgenServerService cappedService = service(segments, NUMBERS, clients, STORE_WORK, Duration.ofSeconds(5));
        Caller greedyCaller = cappedService.authenticate("Bearer greedy-token", "http");
        Caller otherCaller = cappedService.authenticate("Bearer other-token", "http");

        cappedService.nextIds(greedyCaller, "junk-1", 1, null);
        cappedService.takeBlock(greedyCaller, "junk-2", 10, 0);
        // Its third name, by IDs or by block, is refused; the names it has keep working, and other clients are not
        // touched by its cap.
        assertRefused(() -> cappedService.nextIds(greedyCaller, "junk-3", 1, null), Reason.TOO_MANY_NAMES, null);
        assertRefused(() -> cappedService.takeBlock(greedyCaller, "junk-3", 10, 0), Reason.TOO_MANY_NAMES, null);
        assertThat(cappedService.nextIds(greedyCaller, "junk-1", 1, null).numbers())
                .hasSize(1);
        assertThat(cappedService.nextIds(otherCaller, "orders", 1, null).numbers())
                .hasSize(1);
        assertThat(segments.nameCount()).isEqualTo(2); // junk-1 and orders: blocks hold no buffer

        // Names it stopped asking for are released, and their buffers leave the server's memory; the store's rows stay.
        // A new name at the cap releases them at once (so the client gets it), and the sweep hands them on too.
        nanos.addAndGet(Duration.ofMinutes(11).toNanos());
        cappedService.nextIds(otherCaller, "orders", 1, null);
        long again = cappedService.nextIds(greedyCaller, "junk-3", 1, null).numbers()[0];
        assertThat(again).isEqualTo(1);
        assertThat(segments.nameCount()).isEqualTo(3);
        try (IdleNames idle = new IdleNames(clients, segments, Duration.ofMinutes(10))) {
            assertThat(idle.sweep()).isEqualTo(1); // junk-1; orders is in use by 'other', junk-3 by greedy
        }
        assertThat(segments.nameCount()).isEqualTo(2);
        long junk1 = cappedService.nextIds(greedyCaller, "junk-1", 1, null).numbers()[0];
        assertThat(junk1).as("a forgotten name goes on above what it issued").isGreaterThan(2);
    }

    @Test
    void noBlocksOfANameWhoseIdsHaveAnotherForm() {
        IdForms base62 = name -> form("base62");
        IdgenServerService textService = service(segments, base62);
        Caller caller = textService.authenticate("Bearer grpc-token", "grpc");
        assertRefused(() -> textService.takeBlock(caller, "orders", 10, 0), Reason.NOT_FOUND, null);
    }

    private static void awaitInFlight(StoreWork work, int calls) {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (work.inFlight() != calls) {
            assertThat(System.nanoTime() - deadline)
                    .as("%d calls in the store's pool, not %d", work.inFlight(), calls)
                    .isNegative();
            Thread.onSpinWait();
        }
    }

    private static void assertRefused(Runnable call, Reason reason, String parameter) {
        assertThatThrownBy(call::run).isInstanceOfSatisfying(ServerRefusal.class, refusal -> {
            assertThat(refusal.reason()).isEqualTo(reason);
            assertThat(refusal.parameter()).isEqualTo(parameter);
            assertThat(refusal.getMessage()).isNotBlank();
        });
    }
}
