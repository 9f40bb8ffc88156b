package dev.idgen.spring.boot.autoconfigure.reactive;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.core.StoreUnavailableException;
import dev.idgen.spring.boot.autoconfigure.IdgenAutoConfiguration;
import dev.idgen.spring.reactive.BoundedBlockingExecutor;
import dev.idgen.spring.reactive.ReactiveIdService;
import dev.idgen.test.services.TestServices;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import reactor.test.StepVerifier;

/**
 * Tickets (on MariaDB) through the reactive face with a bounded executor that is full: the call fails at once with a
 * {@link StoreUnavailableException} naming the settings to raise, instead of waiting; once the executor drains, calls
 * succeed again.
 */
class BlockingExecutorFullTest {

    private static final Duration DEADLINE = Duration.ofMinutes(1);
    private static final String TICKETS =
            "idgen_rx_full_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(
                    DataSourceAutoConfiguration.class,
                    IdgenAutoConfiguration.class,
                    IdgenReactiveAutoConfiguration.class))
            .withPropertyValues(
                    "spring.datasource.url=" + TestServices.mariadb().url(),
                    "spring.datasource.username=" + TestServices.mariadb().username(),
                    "spring.datasource.password=" + TestServices.mariadb().password(),
                    "idgen.strategy=ticket",
                    "idgen.ticket.create-table=true",
                    "idgen.ticket.table=" + TICKETS,
                    "idgen.reactive.blocking-threads=1",
                    "idgen.reactive.blocking-queue=1");

    @AfterAll
    static void dropTable() throws Exception {
        try (Connection connection = TestServices.mariadb().connect();
                Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS " + TICKETS);
        }
    }

    @Test
    void aCallBeyondTheQueueFailsAtOnceNamingTheSettingsAndTheNextOneAfterItDrainsSucceeds() {
        runner.run(context -> {
            ReactiveIdService reactive = context.getBean(ReactiveIdService.class);
            BoundedBlockingExecutor executor = context.getBean(BoundedBlockingExecutor.class);
            CountDownLatch running = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            CountDownLatch queuedRan = new CountDownLatch(1);
            // The only thread busy, and its one place in the queue taken.
            executor.execute(() -> {
                running.countDown();
                try {
                    release.await(2, TimeUnit.MINUTES);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            assertThat(running.await(1, TimeUnit.MINUTES)).isTrue();
            executor.execute(queuedRan::countDown);

            StepVerifier.create(reactive.nextId("orders"))
                    .expectErrorSatisfies(e -> assertThat(e)
                            .isInstanceOf(StoreUnavailableException.class)
                            .hasMessageContaining("ticket generator")
                            .hasMessageContaining("idgen.reactive.blocking-queue")
                            .hasMessageContaining("idgen.reactive.blocking-threads"))
                    .verify(DEADLINE);

            release.countDown();
            assertThat(queuedRan.await(1, TimeUnit.MINUTES)).isTrue();
            StepVerifier.create(reactive.nextId("orders"))
                    .assertNext(id -> assertThat(id).isPositive())
                    .expectComplete()
                    .verify(DEADLINE);
        });
    }
}
