package dev.idgen.benchmarks.bare;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/**
 * The baseline of {@code wrk.sh}: the least a Spring MVC endpoint can do for {@code GET /ids/{name}}, a counter
 * written as the idgen server writes one ID ({@code ["123"]}). It runs on the idgen server jar's own classpath
 * (Spring Boot's {@code PropertiesLauncher} with this class added), so that both sides share the JVM, Spring MVC,
 * Tomcat, Actuator and their settings, and differ only in what idgen adds: the token check, the rate limit, the
 * meters and the generator.
 */
// As the idgen server: no DataSource without spring.datasource.url.
@SpringBootApplication(
        proxyBeanMethods = false,
        excludeName = "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration")
public class BareCounterApplication {

    public static void main(String[] args) {
        SpringApplication.run(BareCounterApplication.class, args);
    }

    @RestController
    static class CounterController {

        private final AtomicLong counter = new AtomicLong();

        @GetMapping("/ids/{name}")
        List<String> next(@PathVariable String name) {
            return List.of(Long.toString(counter.incrementAndGet()));
        }
    }
}
