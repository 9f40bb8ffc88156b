package dev.idgen.tier.faults;

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
 * A client JVM of the server tier for {@link ServerTierFaultTest}: an application on the starter with
 * {@code idgen.segment.store=remote}, drawing IDs of {@code orders} on two threads until it is killed.
 *
 * <p>Arguments: Spring properties. Standard output carries one line per ID handed out, and one line
 * {@code F <millis> <exception>} per call that failed, with how long it took. An ID counts as handed out once its line
 * reached the pipe.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class RemoteClientMain {

    public static void main(String[] args) {
        // Standard output carries the IDs only: anything else that prints (logging) goes to standard error.
        BufferedWriter out = new BufferedWriter(
                new OutputStreamWriter(new FileOutputStream(FileDescriptor.out), StandardCharsets.US_ASCII), 1 << 16);
        System.setOut(System.err);
        SpringApplication application = new SpringApplication(RemoteClientMain.class);
        application.setWebApplicationType(WebApplicationType.NONE);
        ConfigurableApplicationContext context = application.run(args);
        IdService ids = context.getBean(IdService.class);
        for (int i = 0; i < 2; i++) {
            new Thread(() -> draw(ids, out), "draw-" + i).start();
        }
        while (true) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50)); // flush interval: lines reach the test promptly
            WorkerProcesses.write(out, null);
        }
    }

    private static void draw(IdService ids, BufferedWriter out) {
        StringBuilder batch = new StringBuilder(1 << 12);
        for (long i = 0; ; i++) {
            long started = System.nanoTime();
            boolean failed = false;
            try {
                batch.append(ids.nextId("orders")).append('\n');
            } catch (RuntimeException e) {
                failed = true;
                batch.append("F ")
                        .append(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started))
                        .append(' ')
                        .append(e.getClass().getSimpleName())
                        .append('\n');
            }
            if (i % 16 == 15 || failed) {
                WorkerProcesses.write(out, batch);
                batch.setLength(0);
                // A steady load, not a flood: about 10,000 IDs a second per thread at most; after a failure, a pause
                // as a caller's retry would make.
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(failed ? 100 : 1));
            }
        }
    }
}
