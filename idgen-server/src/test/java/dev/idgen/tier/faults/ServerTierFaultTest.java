package dev.idgen.tier.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.test.ChildJvm;
import dev.idgen.test.WorkerProcesses;
import dev.idgen.test.services.TestServices;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The server tier on real processes: two idgen servers over one MariaDB table, three client JVMs on the starter with
 * {@code idgen.segment.store=remote} drawing IDs under load, through a kill -9 of a server, a SIGSTOP of one, a
 * restart of one and both down for 20 s. No ID may be handed out twice; clients keep serving while a server answers;
 * with both down, they serve from their blocks, then fail within their timeout, and recover on their own.
 */
class ServerTierFaultTest {

    private static final String TOKEN = "fault-test-token";

    /** The clients' idgen.remote.timeout: no block request takes longer. */
    private static final Duration REMOTE_TIMEOUT = Duration.ofSeconds(3);

    /** Room on top of a timeout for a loaded machine (GC, scheduling). */
    private static final Duration ROOM = Duration.ofSeconds(3);

    private static final Duration BOTH_DOWN = Duration.ofSeconds(20);

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final String table =
            "idgen_tier_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);

    private final List<Process> processes = new ArrayList<>();

    @AfterEach
    void cleanUp() throws Exception {
        for (Process process : processes) {
            process.destroyForcibly();
        }
        try (Connection connection = TestServices.mariadb().connect();
                Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS " + table);
        }
    }

    @Test
    void clientsRepeatNoIdThroughServerKillsStopsRestartsAndAnOutageOfBoth() throws Exception {
        Server a = new Server(freePort());
        Server b = new Server(freePort());
        a.start();
        b.start();
        a.awaitReady();
        b.awaitReady();
        List<String> clientProperties = List.of(
                "--idgen.strategy=segment",
                "--idgen.segment.store=remote",
                "--idgen.remote.servers=" + a.url() + "," + b.url(),
                "--idgen.remote.token=" + TOKEN,
                "--idgen.remote.timeout=" + REMOTE_TIMEOUT.toMillis() + "ms",
                // Small blocks that last about two seconds: the outage of both servers must outlast them.
                "--idgen.segment.buffer-duration=2s",
                "--idgen.segment.max-step=5000",
                "--spring.autoconfigure.exclude="
                        + "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration");
        List<Client> clients = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            clients.add(startClient(clientProperties));
        }
        awaitServing("all three clients start", clients);

        a.process.destroyForcibly(); // kill -9
        assertThat(a.process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        awaitServing("after server A was killed", clients);
        a.start();
        a.awaitReady();
        awaitServing("after server A was restarted", clients);

        b.signal("STOP");
        awaitServing("while server B is stopped", clients);
        hold(REMOTE_TIMEOUT.plusSeconds(3)); // past the timeout and the breaker's threshold
        awaitServing("while server B is still stopped", clients);
        b.signal("CONT");
        awaitServing("after server B continued", clients);

        b.process.destroy(); // SIGTERM: a graceful restart
        assertThat(b.process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        awaitServing("while server B restarts", clients);
        b.start();
        b.awaitReady();
        awaitServing("after server B restarted", clients);

        a.process.destroyForcibly();
        b.process.destroyForcibly();
        assertThat(a.process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(b.process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        long downAt = System.nanoTime();
        hold(BOTH_DOWN);
        long downUntil = System.nanoTime();
        for (Client client : clients) {
            assertThat(client.failures)
                    .as("client %d ran out of its blocks during the outage and failed", client.process.pid())
                    .anyMatch(failure -> failure.arrivedNanos - downAt > 0);
            for (Failure failure : client.failures) {
                assertThat(Duration.ofMillis(failure.millis))
                        .as("a failed call (%s) of client %d", failure.exception, client.process.pid())
                        .isLessThanOrEqualTo(REMOTE_TIMEOUT.plus(ROOM));
            }
        }
        a.start();
        b.start();
        a.awaitReady();
        b.awaitReady();
        long back = System.nanoTime();
        awaitServing("after both servers returned", clients);
        Duration recovered = Duration.ofNanos(System.nanoTime() - back);
        long failedCalls = clients.stream().mapToLong(c -> c.failures.size()).sum();
        long slowestFailure = clients.stream()
                .flatMap(c -> c.failures.stream())
                .mapToLong(Failure::millis)
                .max()
                .orElse(0);
        System.out.printf(
                "Server tier outage: %d failed calls in all, the slowest %d ms; clients served again %d ms after"
                        + " both servers answered%n",
                failedCalls, slowestFailure, recovered.toMillis());
        assertThat(recovered)
                .as("every client serves again within 20 s of the servers' return (the breaker's open time and"
                        + " a block request)")
                .isLessThanOrEqualTo(Duration.ofSeconds(20));
        assertThat(downUntil - downAt).isPositive();

        for (Client client : clients) {
            client.process.destroyForcibly();
            assertThat(client.process.waitFor(30, TimeUnit.SECONDS)).isTrue();
            client.reader.join(TimeUnit.SECONDS.toMillis(30));
        }
        long[] all = clients.stream()
                .flatMapToLong(c -> Arrays.stream(c.ids()))
                .sorted()
                .toArray();
        System.out.printf("Server tier: %d IDs from 3 clients, none twice%n", all.length);
        assertThat(all.length).as("IDs handed out").isGreaterThan(100_000);
        for (int i = 1; i < all.length; i++) {
            assertThat(all[i]).as("ID handed out twice").isNotEqualTo(all[i - 1]);
        }
    }

    /** Keeps a fault in place for {@code duration}: the fault's length is what is being tested, not a wait. */
    private static void hold(Duration duration) {
        LockSupport.parkNanos(duration.toNanos());
    }

    private static void eventually(String what, Duration within, BooleanSupplier condition) {
        long deadline = System.nanoTime() + within.toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() - deadline)
                    .as(what + " within " + within)
                    .isNegative();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50)); // a poll interval, not a wait for something
        }
    }

    /** Waits until each client has handed out IDs after now. */
    private static void awaitServing(String when, List<Client> clients) {
        long since = System.nanoTime();
        for (Client client : clients) {
            eventually(
                    "client " + client.process.pid() + " serves IDs " + when,
                    Duration.ofSeconds(60),
                    () -> client.lastId.get() - since > 0);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private Client startClient(List<String> properties) throws IOException {
        List<String> command = ChildJvm.command("256m");
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), RemoteClientMain.class.getName()));
        command.addAll(properties);
        Process process = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        processes.add(process);
        return new Client(process);
    }

    /** One server process on a fixed port, started again on the same port after a kill. */
    private final class Server {

        final int port;

        /** The actuator's port, which the server keeps apart from the API's. */
        final int managementPort;

        Process process;

        Server(int port) {
            this.port = port;
            try (ServerSocket socket = new ServerSocket(0)) {
                this.managementPort = socket.getLocalPort();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        String url() {
            return "http://127.0.0.1:" + port;
        }

        void start() throws Exception {
            TestServices.JdbcEndpoint mariadb = TestServices.mariadb();
            String tokenHash = "sha256:"
                    + HexFormat.of()
                            .formatHex(MessageDigest.getInstance("SHA-256")
                                    .digest(TOKEN.getBytes(StandardCharsets.UTF_8)));
            List<String> command = ChildJvm.command("384m");
            command.addAll(List.of(
                    "-cp",
                    System.getProperty("java.class.path"),
                    "dev.idgen.server.IdgenServerApplication",
                    "--server.address=127.0.0.1",
                    "--server.port=" + port,
                    "--management.server.port=" + managementPort,
                    "--idgen.server.grpc.enabled=false",
                    "--idgen.server.clients.fault.token-hash=" + tokenHash,
                    "--idgen.server.clients.fault.names=orders",
                    "--idgen.strategy=segment",
                    "--idgen.jdbc.table=" + table,
                    "--idgen.jdbc.initialize-schema=always",
                    "--spring.datasource.url=" + mariadb.url(),
                    "--spring.datasource.username=" + mariadb.username(),
                    "--spring.datasource.password=" + mariadb.password()));
            process = new ProcessBuilder(command)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.INHERIT)
                    .start();
            processes.add(process);
        }

        void awaitReady() {
            // JVM start-up on a loaded machine takes up to minutes.
            eventually("server on port " + port + " is up", Duration.ofMinutes(3), () -> {
                assertThat(process.isAlive())
                        .as("server on port " + port + " is alive")
                        .isTrue();
                try {
                    HttpResponse<String> response = HTTP.send(
                            HttpRequest.newBuilder(
                                            URI.create("http://127.0.0.1:" + managementPort + "/actuator/health"))
                                    .timeout(Duration.ofSeconds(2))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
                    return response.statusCode() == 200;
                } catch (IOException e) {
                    return false;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            });
        }

        void signal(String signal) throws Exception {
            WorkerProcesses.signal(process, signal);
        }
    }

    private record Failure(long millis, String exception, long arrivedNanos) {}

    /** One client process, its output read as it arrives. */
    private static final class Client {

        final Process process;

        final AtomicLong lastId = new AtomicLong(System.nanoTime() - TimeUnit.DAYS.toNanos(1));

        final ConcurrentLinkedQueue<Failure> failures = new ConcurrentLinkedQueue<>();

        final Thread reader;

        private long[] ids = new long[1 << 16];

        private int count;

        Client(Process process) {
            this.process = process;
            this.reader = new Thread(this::read, "read-" + process.pid());
            reader.setDaemon(true);
            reader.start();
        }

        synchronized long[] ids() {
            return Arrays.copyOf(ids, count);
        }

        /** Only whole lines count: a line a SIGKILL cut short never reached the pipe whole. */
        private void read() {
            WorkerProcesses.readWholeLines(process, this::accept);
        }

        private void accept(String line) {
            long now = System.nanoTime();
            if (line.isEmpty()) {
                throw new IllegalStateException("An empty line from client " + process.pid());
            }
            if (line.charAt(0) == 'F') {
                String[] parts = line.split(" ");
                failures.add(new Failure(Long.parseLong(parts[1]), parts[2], now));
            } else {
                add(Long.parseLong(line));
                lastId.set(now);
            }
        }

        private synchronized void add(long id) {
            if (count == ids.length) {
                ids = Arrays.copyOf(ids, count * 2);
            }
            ids[count++] = id;
        }
    }
}
