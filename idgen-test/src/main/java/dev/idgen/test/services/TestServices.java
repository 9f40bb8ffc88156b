package dev.idgen.test.services;

import com.zaxxer.hikari.HikariDataSource;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.JdbcDatabaseContainer;
import org.testcontainers.mariadb.MariaDBContainer;
import org.testcontainers.postgresql.PostgreSQLContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * Real Redis, MariaDB and PostgreSQL for integration tests, never mocks. Each service is found, in this order:
 * <ol>
 * <li>from environment variables, when set ({@code .ci/run} sets them to the local services);</li>
 * <li>from Testcontainers, when a Docker engine answers;</li>
 * <li>outside CI only, on the service's default loopback port, when something answers there;</li>
 * <li>otherwise the test fails with a message that says what to start or set. It never skips.</li>
 * </ol>
 * Containers are started once per test JVM and stopped by Testcontainers when it exits.
 */
public final class TestServices {

    private static final Map<String, Object> RESOLVED = new ConcurrentHashMap<>();

    private static final boolean CI = "true".equalsIgnoreCase(System.getenv("CI"));

    private TestServices() {}

    /** @return a Redis server */
    public static RedisEndpoint redis() {
        return (RedisEndpoint) RESOLVED.computeIfAbsent("redis", key -> resolveRedis());
    }

    /** @return a MariaDB (MySQL-compatible) database */
    public static JdbcEndpoint mariadb() {
        return (JdbcEndpoint) RESOLVED.computeIfAbsent(
                "mariadb",
                key -> resolveJdbc(
                        "MARIADB",
                        "MariaDB",
                        "jdbc:mariadb://127.0.0.1:3306/test",
                        "root",
                        "",
                        3306,
                        "start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd",
                        () -> startJdbc(new MariaDBContainer(DockerImageName.parse("mariadb:10.11")))));
    }

    /** @return a PostgreSQL database */
    public static JdbcEndpoint postgres() {
        return (JdbcEndpoint) RESOLVED.computeIfAbsent(
                "postgres",
                key -> resolveJdbc(
                        "POSTGRES",
                        "PostgreSQL",
                        "jdbc:postgresql://127.0.0.1:5432/test",
                        "postgres",
                        "",
                        5432,
                        "pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start",
                        () -> startJdbc(new PostgreSQLContainer(DockerImageName.parse("postgres:15")))));
    }

    private static RedisEndpoint resolveRedis() {
        String hint = "redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save \"\" --appendonly no";
        String url = System.getenv("IDGEN_TEST_REDIS_URL");
        if (url != null && !url.isBlank()) {
            URI uri = URI.create(url.trim());
            RedisEndpoint endpoint = new RedisEndpoint(uri.getHost(), uri.getPort() < 0 ? 6379 : uri.getPort());
            requireAnswering("Redis", endpoint.host(), endpoint.port(), "IDGEN_TEST_REDIS_URL=" + url, hint);
            return endpoint;
        }
        if (dockerAvailable()) {
            GenericContainer<?> container = new GenericContainer<>(DockerImageName.parse("redis:7.0"))
                    .withExposedPorts(6379)
                    .withCommand("redis-server", "--save", "", "--appendonly", "no");
            container.start();
            return new RedisEndpoint(container.getHost(), container.getFirstMappedPort());
        }
        if (!CI && answers("127.0.0.1", 6379)) {
            return new RedisEndpoint("127.0.0.1", 6379);
        }
        throw missing("Redis", "IDGEN_TEST_REDIS_URL=redis://127.0.0.1:6379", hint);
    }

    private static JdbcEndpoint resolveJdbc(
            String variable,
            String service,
            String defaultUrl,
            String defaultUser,
            String defaultPassword,
            int defaultPort,
            String hint,
            Supplier<JdbcEndpoint> container) {
        String url = System.getenv("IDGEN_TEST_" + variable + "_URL");
        if (url != null && !url.isBlank()) {
            String user = envOr("IDGEN_TEST_" + variable + "_USER", defaultUser);
            String password = envOr("IDGEN_TEST_" + variable + "_PASSWORD", defaultPassword);
            URI uri = URI.create(url.trim().substring("jdbc:".length()));
            requireAnswering(
                    service,
                    uri.getHost(),
                    uri.getPort() < 0 ? defaultPort : uri.getPort(),
                    "IDGEN_TEST_" + variable + "_URL=" + url,
                    hint);
            return new JdbcEndpoint(url.trim(), user, password);
        }
        if (dockerAvailable()) {
            return container.get();
        }
        if (!CI && answers("127.0.0.1", defaultPort)) {
            return new JdbcEndpoint(defaultUrl, defaultUser, defaultPassword);
        }
        throw missing(service, "IDGEN_TEST_" + variable + "_URL=" + defaultUrl + " (and _USER, _PASSWORD)", hint);
    }

    private static JdbcEndpoint startJdbc(JdbcDatabaseContainer<?> container) {
        container.start();
        return new JdbcEndpoint(container.getJdbcUrl(), container.getUsername(), container.getPassword());
    }

    private static String envOr(String name, String fallback) {
        String value = System.getenv(name);
        return value == null ? fallback : value;
    }

    private static boolean dockerAvailable() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }

    private static boolean answers(String host, int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), 1000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static void requireAnswering(String service, String host, int port, String source, String hint) {
        if (!answers(host, port)) {
            throw new IllegalStateException(service + " at " + host + ":" + port + " (from " + source
                    + ") does not answer. Start it, for example: " + hint);
        }
    }

    private static IllegalStateException missing(String service, String variable, String hint) {
        return new IllegalStateException("This test needs a real " + service + " and none was found: set " + variable
                + ", or start a Docker engine for Testcontainers, or start a local " + service + " (" + hint + "). "
                + (CI ? "In CI (CI=true) the environment variable is required; .ci/run sets it." : ""));
    }

    /** A Redis server's address. */
    public record RedisEndpoint(String host, int port) {

        /** @return {@code redis://host:port} */
        public String uri() {
            return "redis://" + host + ":" + port;
        }
    }

    /** A database's JDBC URL and credentials. */
    public record JdbcEndpoint(String url, String username, String password) {

        /** @return a new connection; the caller closes it */
        public Connection connect() throws SQLException {
            return DriverManager.getConnection(url, username, password);
        }

        /**
         * @param size the pool's size
         * @return a connection pool that gives up on a connection after 500 ms; the caller closes it
         */
        public HikariDataSource pool(int size) {
            HikariDataSource pool = new HikariDataSource();
            pool.setJdbcUrl(url);
            pool.setUsername(username);
            pool.setPassword(password);
            pool.setMaximumPoolSize(size);
            pool.setConnectionTimeout(500);
            return pool;
        }
    }
}
