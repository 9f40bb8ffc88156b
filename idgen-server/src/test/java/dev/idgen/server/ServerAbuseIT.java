package dev.idgen.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.server.grpc.v1.IdgenGrpc;
import dev.idgen.server.grpc.v1.NextIdsRequest;
import dev.idgen.server.grpc.v1.NextIdsResponse;
import dev.idgen.test.services.OwnMariaDb;
import io.grpc.ClientInterceptor;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.MetadataUtils;
import io.grpc.stub.StreamObserver;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The server jar ({@code target/idgen-server.jar}, run by failsafe after the package phase) at its default settings,
 * over a MariaDB of the test's own, attacked as a hostile client would: requests that would end a name, bad and
 * oversized tokens, junk and oversized names, huge counts and sizes, slow clients, thousands of connections, and a
 * gRPC flood while the store is frozen (SIGSTOP). After each, the well-behaved client {@code good} is still served,
 * its IDs never repeat, the server's threads stay bounded (read from its own meters) and the store's rows are sound.
 *
 * <p>Clients: {@code good} (the name {@code orders} only), {@code star} and {@code star2} (every name, the default cap
 * of 100 names in use).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ServerAbuseIT {

    private static final String TABLE = "idgen_abuse";

    /** More than the server can have at default settings: Tomcat's 200, gRPC's 128, the stores' 16, and its own. */
    private static final int THREAD_BOUND = 450;

    private final String good = "good-" + UUID.randomUUID();

    private final String star = "star-" + UUID.randomUUID();

    private final String star2 = "star2-" + UUID.randomUUID();

    /** Every ID of {@code orders} handed to {@code good}: none may repeat. */
    private final Set<Long> seen = ConcurrentHashMap.newKeySet();

    private OwnMariaDb database;

    private ServerJarProcess server;

    private int port;

    private int managementPort;

    private int grpcPort;

    private ServerHttp http;

    private ManagedChannel channel;

    private final List<String> measured = new ArrayList<>();

    @BeforeAll
    void start() throws Exception {
        database = OwnMariaDb.start();
        server = new ServerJarProcess(
                "abuse",
                List.of(
                        "--idgen.server.clients.good.token-hash=" + ServerHttp.tokenHash(good),
                        "--idgen.server.clients.good.names=orders",
                        "--idgen.server.clients.star.token-hash=" + ServerHttp.tokenHash(star),
                        "--idgen.server.clients.star.names=*",
                        "--idgen.server.clients.star2.token-hash=" + ServerHttp.tokenHash(star2),
                        "--idgen.server.clients.star2.names=*",
                        "--idgen.strategy=segment",
                        "--idgen.jdbc.table=" + TABLE,
                        "--spring.datasource.url=" + database.url(),
                        "--spring.datasource.username=" + database.endpoint().username(),
                        "--spring.datasource.password=" + database.endpoint().password()));
        port = server.port;
        managementPort = server.managementPort;
        grpcPort = server.grpcPort;
        server.awaitHealthy(new ServerHttp("http://127.0.0.1:" + managementPort));
        http = new ServerHttp("http://127.0.0.1:" + port);
        channel = Grpc.newChannelBuilderForAddress("127.0.0.1", grpcPort, InsecureChannelCredentials.create())
                .build();
        assertGoodIsServed("at start");
    }

    @AfterAll
    void stop() throws Exception {
        System.out.println("ServerAbuseIT measured: " + String.join("; ", measured));
        if (channel != null) {
            channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
        }
        if (server != null) {
            server.close();
        }
        if (database != null) {
            database.resume();
            database.close();
        }
    }

    @Test
    @Order(1)
    void noRequestEndsAName() throws Exception {
        ServerHttp.Answer ending = http.post("/blocks/orders?size=1&above=9223372032559808510", star);
        assertProblem(ending, 400, "above");
        ServerHttp.Answer tooHigh = http.post("/blocks/orders?size=1&above=500000000000", star);
        assertProblem(tooHigh, 400, "above");
        ServerHttp.Answer block = http.post("/blocks/orders?size=10", star);
        assertThat(block.status()).as(block.toString()).isEqualTo(200);
        assertThat(Long.parseLong(block.json().get("last").stringValue())).isLessThan(1_000_000L);
        assertGoodIsServed("after the requests that would end the name");
    }

    @Test
    @Order(2)
    void badAndOversizedTokens() {
        assertProblem(http.get("/ids/orders", null), 401, null);
        assertProblem(http.get("/ids/orders", "not-a-token"), 401, null);
        assertProblem(http.get("/ids/orders", "Basic " + good), 401, null);
        ServerHttp.Answer oversized = http.get("/ids/orders", "t".repeat(9_000));
        assertThat(oversized.status()).isBetween(400, 499);
        assertThat(oversized.contentType()).startsWith("application/problem+json");
        // Nothing of the actuator answers on the API's port; on its own port, health tells no store messages.
        for (String path : List.of("/actuator/idgen", "/actuator/idgen/default/decode/1", "/actuator/health")) {
            assertProblem(http.get(path, null), 404, null);
        }
        ServerHttp.Answer health = new ServerHttp("http://127.0.0.1:" + managementPort).get("/actuator/health", null);
        assertThat(health.status()).isEqualTo(200);
        assertThat(health.response().body()).doesNotContain("details", "jdbc:", "127.0.0.1");
        assertGoodIsServed("after bad tokens");
    }

    @Test
    @Order(3)
    void junkAndOversizedNamesAndHugeArguments() {
        assertProblem(http.get("/ids/_bad", good), 400, "name");
        ServerHttp.Answer longName = http.get("/ids/" + "a".repeat(10_000), good);
        assertThat(longName.status()).isBetween(400, 499);
        assertThat(longName.contentType()).startsWith("application/problem+json");
        assertProblem(http.get("/ids/orders?count=100000000", good), 400, "count");
        assertProblem(http.get("/ids/orders?count=-1", good), 400, "count");
        assertProblem(http.get("/ids/orders?count=1e3", good), 400, "count");
        assertProblem(http.post("/blocks/orders?size=1000000000000", star), 400, "size");
        assertProblem(http.post("/blocks/orders?size=10&above=-5", star), 400, "above");
        // A client allowed every name fills its own cap, not the server's table: the others keep getting new names.
        // star has orders in use already (its blocks), so 99 more fill its 100.
        for (int i = 0; i < 99; i++) {
            ServerHttp.Answer junk = http.get("/ids/junk-" + i, star);
            assertThat(junk.status()).as(junk.toString()).isEqualTo(200);
        }
        ServerHttp.Answer capped = http.get("/ids/junk-99", star);
        assertProblem(capped, 429, null);
        assertThat(capped.header("Retry-After")).isNotNull();
        assertProblem(http.post("/blocks/junk-100?size=10", star), 429, null);
        ServerHttp.Answer others = http.get("/ids/fresh", star2);
        assertThat(others.status()).as(others.toString()).isEqualTo(200);
        assertGoodIsServed("after junk names");
    }

    @Test
    @Order(4)
    void slowClientsAndThousandsOfConnections() throws Exception {
        List<Socket> sockets = new ArrayList<>();
        try {
            // Slow clients: a request line and half a header, then nothing.
            for (int i = 0; i < 300; i++) {
                Socket socket = new Socket("127.0.0.1", port);
                sockets.add(socket);
                OutputStream out = socket.getOutputStream();
                out.write("GET /ids/orders HTTP/1.1\r\nHost: x\r\nAuthor".getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
            }
            // Idle connections, on both faces.
            for (int i = 0; i < 2500; i++) {
                sockets.add(new Socket("127.0.0.1", i % 2 == 0 ? port : grpcPort));
            }
            assertGoodIsServed("while 2,800 connections are held open");
            int threads = threads();
            measured.add("threads with 2,800 connections held: " + threads);
            assertThat(threads).isLessThan(THREAD_BOUND);
        } finally {
            for (Socket socket : sockets) {
                socket.close();
            }
        }
        assertGoodIsServed("after the connections closed");
    }

    @Test
    @Order(5)
    void aGrpcFloodWhileTheStoreIsFrozenLeavesNamesInMemoryAnswering() throws Exception {
        measured.add("threads before the flood: " + threads());
        // A connection of its own, as another client's: one connection carries at most 100 calls at once, and good's
        // calls must not queue behind the flood's in this test's own client.
        ManagedChannel floodChannel = Grpc.newChannelBuilderForAddress(
                        "127.0.0.1", grpcPort, InsecureChannelCredentials.create())
                .build();
        IdgenGrpc.IdgenStub flood = IdgenGrpc.newStub(floodChannel).withInterceptors(bearer(star2));
        int calls = 2_000;
        CountDownLatch done = new CountDownLatch(calls);
        Map<Status.Code, AtomicInteger> outcomes = new ConcurrentHashMap<>();
        database.pause();
        try {
            for (int i = 0; i < calls; i++) {
                flood.withDeadlineAfter(60, TimeUnit.SECONDS)
                        .nextIds(
                                NextIdsRequest.newBuilder()
                                        .setName("flood-" + (i % 50))
                                        .build(),
                                new StreamObserver<>() {
                                    @Override
                                    public void onNext(NextIdsResponse value) {}

                                    @Override
                                    public void onError(Throwable t) {
                                        outcomes.computeIfAbsent(
                                                        Status.fromThrowable(t).getCode(), code -> new AtomicInteger())
                                                .incrementAndGet();
                                        done.countDown();
                                    }

                                    @Override
                                    public void onCompleted() {
                                        outcomes.computeIfAbsent(Status.Code.OK, code -> new AtomicInteger())
                                                .incrementAndGet();
                                        done.countDown();
                                    }
                                });
            }
            // The name in memory answers on both faces while the flood waits for the frozen store.
            int most = 0;
            for (int round = 0; round < 5; round++) {
                assertGoodIsServed("during the flood, round " + round);
                most = Math.max(most, threads());
            }
            measured.add("most threads during the flood: " + most);
            assertThat(most).isLessThan(THREAD_BOUND);
            assertThat(done.await(2, TimeUnit.MINUTES))
                    .as("every flood call ended (%s)", outcomes)
                    .isTrue();
            measured.add("flood outcomes while frozen: " + outcomes);
            assertThat(outcomes.getOrDefault(Status.Code.RESOURCE_EXHAUSTED, new AtomicInteger())
                            .get())
                    .as("calls past the store's bound are refused at once (%s)", outcomes)
                    .isPositive();
            assertThat(outcomes.keySet())
                    .as("refused, never failed (%s)", outcomes)
                    .isSubsetOf(Status.Code.RESOURCE_EXHAUSTED, Status.Code.UNAVAILABLE, Status.Code.OK);
        } finally {
            database.resume();
            floodChannel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
        }
        // Once the store answers again, so do the names that waited for it.
        IdgenGrpc.IdgenBlockingStub star2Stub =
                IdgenGrpc.newBlockingStub(channel).withInterceptors(bearer(star2));
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (true) {
            try {
                star2Stub
                        .withDeadlineAfter(10, TimeUnit.SECONDS)
                        .nextIds(NextIdsRequest.newBuilder().setName("flood-0").build());
                break;
            } catch (StatusRuntimeException e) {
                assertThat(System.nanoTime() - deadline)
                        .as("flood-0 served within a minute of the store's return: " + e.getStatus())
                        .isNegative();
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200)); // a poll interval
            }
        }
        assertGoodIsServed("after the store returned");
        measured.add("threads after the flood: " + threads());
        measured.add("heap used after the flood: " + heapUsedMiB() + " MiB of 256");
        assertRowsSound();
    }

    /** {@code good} gets IDs of {@code orders} over HTTP and gRPC, none seen before. */
    private void assertGoodIsServed(String when) {
        ServerHttp.Answer answer = http.get("/ids/orders?count=5", good);
        assertThat(answer.status()).as(when + ": " + answer).isEqualTo(200);
        answer.json()
                .forEach(id -> assertThat(seen.add(Long.parseLong(id.stringValue())))
                        .as(when + ": ID %s handed out twice", id)
                        .isTrue());
        NextIdsResponse ids = IdgenGrpc.newBlockingStub(channel)
                .withInterceptors(bearer(good))
                .withDeadlineAfter(5, TimeUnit.SECONDS)
                .nextIds(NextIdsRequest.newBuilder()
                        .setName("orders")
                        .setCount(5)
                        .build());
        for (long id : ids.getNumbersList()) {
            assertThat(seen.add(id)).as(when + ": ID %d handed out twice", id).isTrue();
        }
    }

    /** The row of {@code orders} lies above every ID served and far below 2^63; the junk is capped. */
    private void assertRowsSound() throws Exception {
        long highest = seen.stream().mapToLong(Long::longValue).max().orElseThrow();
        try (Connection connection = database.connect();
                PreparedStatement row =
                        connection.prepareStatement("SELECT max_id FROM test." + TABLE + " WHERE name = ?");
                Statement count = connection.createStatement()) {
            row.setString(1, "orders");
            try (ResultSet result = row.executeQuery()) {
                assertThat(result.next()).isTrue();
                assertThat(result.getLong(1)).isGreaterThanOrEqualTo(highest).isLessThan(1_000_000_000L);
            }
            List<String> names = new ArrayList<>();
            try (ResultSet result = count.executeQuery("SELECT name FROM test." + TABLE)) {
                while (result.next()) {
                    names.add(result.getString(1));
                }
            }
            // orders, star's 99 junk names, star2's fresh name and its 50 flood names: nothing past the caps.
            assertThat(names)
                    .as("the names with rows")
                    .allMatch(name -> name.equals("orders")
                            || name.equals("#idgen-writer") // the store's own row, which tells a failover
                            || name.startsWith("_idgen.") // where the generator lives (docs/switching.md)
                            || name.equals("fresh")
                            || name.matches("junk-([0-9]|[1-9][0-9])")
                            || name.matches("flood-([0-9]|[1-4][0-9])"));
        }
    }

    private int threads() {
        return (int) meter("jvm_threads_live_threads");
    }

    private long heapUsedMiB() {
        String prometheus = prometheus();
        return (long) prometheus
                        .lines()
                        .filter(line -> line.startsWith("jvm_memory_used_bytes{") && line.contains("area=\"heap\""))
                        .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                        .sum()
                / (1024 * 1024);
    }

    private double meter(String name) {
        return prometheus()
                .lines()
                .filter(line -> line.startsWith(name + " ") || line.startsWith(name + "{"))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                .findFirst()
                .orElseThrow(() -> new AssertionError(name + " is not in the server's meters"));
    }

    private String prometheus() {
        ServerHttp.Answer answer =
                new ServerHttp("http://127.0.0.1:" + managementPort).get("/actuator/prometheus", null);
        assertThat(answer.status()).isEqualTo(200);
        return answer.response().body();
    }

    private static ClientInterceptor bearer(String token) {
        Metadata headers = new Metadata();
        headers.put(Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER), "Bearer " + token);
        return MetadataUtils.newAttachHeadersInterceptor(headers);
    }

    private static void assertProblem(ServerHttp.Answer answer, int status, String parameter) {
        assertThat(answer.status()).as(answer.toString()).isEqualTo(status);
        assertThat(answer.contentType()).as(answer.toString()).startsWith("application/problem+json");
        if (parameter != null) {
            assertThat(answer.json().get("parameter").stringValue()).isEqualTo(parameter);
        }
    }
}
