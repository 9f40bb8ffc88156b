package dev.idgen.samples;

import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * The MariaDB the sample's MariaDB-profile tests use: {@code IDGEN_TEST_MARIADB_URL} with {@code _USER} and
 * {@code _PASSWORD} (which .ci/run sets), else, outside CI, the local default port as root. A MariaDB that does not
 * answer fails the test, saying what to start.
 */
final class SampleMariaDb {

    private SampleMariaDb() {}

    static void register(DynamicPropertyRegistry registry) {
        String url = System.getenv("IDGEN_TEST_MARIADB_URL");
        boolean ci = "true".equalsIgnoreCase(System.getenv("CI"));
        if ((url == null || url.isBlank()) && ci) {
            throw new IllegalStateException(
                    "This test needs a real MariaDB: set IDGEN_TEST_MARIADB_URL (.ci/run does)");
        }
        String jdbcUrl = url == null || url.isBlank() ? "jdbc:mariadb://127.0.0.1:3306/test" : url.trim();
        URI uri = URI.create(jdbcUrl.substring("jdbc:".length()));
        int port = uri.getPort() < 0 ? 3306 : uri.getPort();
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(uri.getHost(), port), 1000);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(
                    "This test needs a real MariaDB at " + uri.getHost() + ":" + port
                            + ": start one (start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd)"
                            + " or set IDGEN_TEST_MARIADB_URL",
                    e);
        }
        registry.add("spring.datasource.url", () -> jdbcUrl);
        registry.add("spring.datasource.username", () -> env("IDGEN_TEST_MARIADB_USER", "root"));
        registry.add("spring.datasource.password", () -> env("IDGEN_TEST_MARIADB_PASSWORD", ""));
    }

    private static String env(String name, String otherwise) {
        String value = System.getenv(name);
        return value == null ? otherwise : value;
    }
}
