package dev.idgen.spring.boot.faults;

import dev.idgen.core.IdService;
import dev.idgen.test.WorkerProcesses;
import java.io.BufferedWriter;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A separate JVM, an application on the starter, that draws segment IDs (the default generator, {@code orders}) and
 * Snowflake IDs (the generator {@code flake}, its worker id leased) from etcd or ZooKeeper until it is killed, for
 * {@link ConsensusFaultTest}.
 *
 * <p>Arguments: Spring properties ({@code --idgen.segment.store=etcd ...}). Standard output carries one line per ID,
 * {@code s <id>} or {@code f <id>}, and one line {@code L <kind> <millis> <outcome>} per call that took 300 ms or
 * more, the outcome {@code ok} or the exception's class. An ID counts as handed out once its line reached the pipe.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class ConsensusWorkerMain {

    /** Calls at least this slow are reported. */
    private static final long SLOW_MILLIS = 300;

    public static void main(String[] args) {
        // Standard output carries the IDs only: anything else that prints (logging) goes to standard error.
        BufferedWriter out = new BufferedWriter(
                new OutputStreamWriter(new FileOutputStream(FileDescriptor.out), StandardCharsets.US_ASCII), 1 << 16);
        System.setOut(System.err);
        SpringApplication application = new SpringApplication(ConsensusWorkerMain.class);
        application.setWebApplicationType(WebApplicationType.NONE);
        ConfigurableApplicationContext context = application.run(args);
        IdService ids = context.getBean(IdService.class);
        Thread segments = draw(ids, "orders", 's', out);
        Thread flakes = draw(ids, "flake", 'f', out);
        segments.start();
        flakes.start();
        while (true) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50)); // flush interval: lines reach the test promptly
            WorkerProcesses.write(out, null);
        }
    }

    private static Thread draw(IdService ids, String name, char kind, BufferedWriter out) {
        return new Thread(
                () -> {
                    StringBuilder batch = new StringBuilder(1 << 12);
                    for (long i = 0; ; i++) {
                        long started = System.nanoTime();
                        String outcome = "ok";
                        try {
                            long id = ids.nextId(name);
                            batch.append(kind).append(' ').append(id).append('\n');
                        } catch (RuntimeException e) {
                            outcome = e.getClass().getSimpleName();
                        }
                        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
                        if (millis >= SLOW_MILLIS) {
                            batch.append("L ")
                                    .append(kind)
                                    .append(' ')
                                    .append(millis)
                                    .append(' ')
                                    .append(outcome)
                                    .append('\n');
                        }
                        if (i % 16 == 15 || !"ok".equals(outcome)) {
                            WorkerProcesses.write(out, batch);
                            batch.setLength(0);
                            // A steady load, not a flood: about 10,000 IDs a second per kind at most.
                            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos("ok".equals(outcome) ? 1 : 20));
                        }
                    }
                },
                "draw-" + name);
    }
}
