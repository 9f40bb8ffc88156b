package dev.idgen.server;

import dev.idgen.test.services.TestServices;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/** Whole servers started in the test's JVM, each on a free port, as {@code java -jar idgen-server.jar} would run. */
final class ServerApps {

    private ServerApps() {}

    /**
     * @param arguments {@code --property=value} each
     * @return the running server; the caller closes it
     */
    static ConfigurableApplicationContext start(String... arguments) {
        List<String> all = new ArrayList<>(
                List.of("--server.port=0", "--management.server.port=0", "--spring.main.banner-mode=off"));
        all.addAll(List.of(arguments));
        return new SpringApplicationBuilder(IdgenServerApplication.class).run(all.toArray(String[]::new));
    }

    /** @return the arguments that put the default generator on segments from a table in the test's MariaDB */
    static List<String> segmentsOnMariaDb(String table) {
        TestServices.JdbcEndpoint mariadb = TestServices.mariadb();
        return List.of(
                "--spring.datasource.url=" + mariadb.url(),
                "--spring.datasource.username=" + mariadb.username(),
                "--spring.datasource.password=" + mariadb.password(),
                "--idgen.strategy=segment",
                "--idgen.segment.step=50",
                "--idgen.jdbc.table=" + table,
                "--idgen.jdbc.initialize-schema=always");
    }

    /** @return the port the server listens on */
    static int port(ConfigurableApplicationContext server) {
        return server.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
    }
}
