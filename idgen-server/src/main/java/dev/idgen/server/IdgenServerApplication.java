package dev.idgen.server;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The idgen server: {@code java -jar idgen-server.jar} with the starter's {@code idgen.*} properties (any generators,
 * any strategies) and the server's own {@code idgen.server.*}.
 */
@SpringBootApplication
public class IdgenServerApplication {

    public static void main(String[] args) {
        SpringApplication.run(IdgenServerApplication.class, args);
    }
}
