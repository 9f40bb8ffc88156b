package dev.idgen.server;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;

/**
 * The idgen server: {@code java -jar idgen-server.jar} with the starter's {@code idgen.*} properties (any generators,
 * any strategies) and the server's own {@code idgen.server.*}.
 */
// The DataSource comes from ServerDataSourceConfiguration, only with a database URL.
@SpringBootApplication(exclude = DataSourceAutoConfiguration.class)
public class IdgenServerApplication {

    public static void main(String[] args) {
        SpringApplication.run(IdgenServerApplication.class, args);
    }
}
