package dev.idgen.test.services;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * A {@code redis-server} of the test's own on a free loopback port, without persistence (like the machines' shared
 * one): the test may kill it and start it again, and it comes back empty.
 */
public final class OwnRedis implements AutoCloseable {

    private static final String REDIS_SERVER = "/usr/bin/redis-server";

    private final Path dir;
    private final int port;
    private final List<String> extraArgs;
    private Process process;

    private OwnRedis(Path dir, int port, List<String> extraArgs) {
        this.dir = dir;
        this.port = port;
        this.extraArgs = extraArgs;
    }

    /**
     * @param extraArgs more redis-server arguments, e.g. {@code --rename-command CONFIG ""}
     * @throws IllegalStateException when redis-server is not installed
     */
    public static OwnRedis start(String... extraArgs) throws Exception {
        if (!new File(REDIS_SERVER).canExecute()) {
            throw new IllegalStateException("This fault test starts a Redis server of its own and needs " + REDIS_SERVER
                    + ": install it with 'apt-get install redis-server'");
        }
        OwnRedis redis = new OwnRedis(Files.createTempDirectory("idgen-redis-"), freePort(), List.of(extraArgs));
        redis.startServer();
        return redis;
    }

    /** Starts the server (again), empty, on the same port. */
    public void startServer() throws Exception {
        if (process != null && process.isAlive()) {
            return;
        }
        List<String> command = new ArrayList<>(List.of(
                REDIS_SERVER,
                "--port",
                Integer.toString(port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                dir.toString(),
                "--daemonize",
                "no"));
        command.addAll(extraArgs);
        process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(
                        dir.resolve("redis.log").toFile()))
                .start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!"+PONG".equals(ping())) {
            if (!process.isAlive() || System.nanoTime() > deadline) {
                throw new IllegalStateException("Own redis-server did not start; see " + dir.resolve("redis.log"));
            }
            Thread.sleep(20);
        }
    }

    /** Kills the server (SIGKILL): everything it held is gone. */
    public void kill() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroyForcibly();
            process.waitFor(20, TimeUnit.SECONDS);
        }
    }

    /** Sends {@code signal} (e.g. {@code STOP}, {@code CONT}) to the server process. */
    public void signal(String signal) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).start();
        if (!kill.waitFor(20, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            throw new IllegalStateException("kill -" + signal + " " + process.pid() + " failed");
        }
    }

    public int port() {
        return port;
    }

    public String uri() {
        return "redis://127.0.0.1:" + port;
    }

    /**
     * @return a started connection factory on this server, with a short connect timeout
     */
    public LettuceConnectionFactory connectionFactory() {
        return connectionFactory("127.0.0.1", port);
    }

    /**
     * @return a started Lettuce connection factory for {@code host:port}
     */
    public static LettuceConnectionFactory connectionFactory(String host, int port) {
        LettuceConnectionFactory factory = new LettuceConnectionFactory(
                new RedisStandaloneConfiguration(host, port),
                LettuceClientConfiguration.builder()
                        .commandTimeout(Duration.ofSeconds(2))
                        .build());
        factory.afterPropertiesSet();
        factory.start();
        return factory;
    }

    /**
     * Deletes every key that starts with {@code prefix}, as tests do after themselves.
     */
    public static void deleteKeys(LettuceConnectionFactory factory, String prefix) {
        try (var connection = factory.getConnection()) {
            var keys = connection.keyCommands().keys((prefix + "*").getBytes(StandardCharsets.UTF_8));
            if (keys != null && !keys.isEmpty()) {
                connection.keyCommands().del(keys.toArray(new byte[0][]));
            }
        }
    }

    private String ping() {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
            socket.setSoTimeout(500);
            OutputStream out = socket.getOutputStream();
            out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            byte[] buffer = new byte[16];
            int read = in.read(buffer);
            return read <= 0 ? null : new String(buffer, 0, read, StandardCharsets.US_ASCII).trim();
        } catch (IOException e) {
            return null;
        }
    }

    @Override
    public void close() throws IOException {
        try {
            kill();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try (var paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder())
                    .forEach(path -> path.toFile().delete());
        }
    }

    /** A port no other JVM of the suite takes while this server is down between a kill and a restart. */
    private static int freePort() {
        return OwnProcesses.freePort(false);
    }
}
