package dev.idgen.samples;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A runnable ID service over HTTP on the idgen starter. With no settings it runs Snowflake as worker 0, which needs no
 * external service.
 */
@SpringBootApplication
public class IdServiceApplication {

    public static void main(String[] args) {
        SpringApplication.run(IdServiceApplication.class, args);
    }
}
