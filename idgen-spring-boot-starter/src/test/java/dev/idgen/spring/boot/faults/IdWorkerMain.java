package dev.idgen.spring.boot.faults;

import com.zaxxer.hikari.HikariDataSource;
import dev.idgen.core.IdService;
import dev.idgen.core.TimeSource;
import dev.idgen.core.segment.SegmentIdService;
import dev.idgen.core.segment.SegmentSettings;
import dev.idgen.jdbc.JdbcSegmentStore;
import dev.idgen.jdbc.SchemaInitialization;
import dev.idgen.jdbc.TicketIdService;
import dev.idgen.jdbc.TicketServer;
import dev.idgen.test.services.TestServices;
import java.io.BufferedWriter;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

/**
 * A separate JVM that draws IDs and writes each one to standard output, for the multi-process tests. An ID counts as
 * handed out once it has reached the pipe, so IDs still in this process's buffer when it is killed were never handed
 * out.
 *
 * <p>Arguments: {@code segment|ticket jdbcUrl user table name count} (count -1: until killed).
 */
public final class IdWorkerMain {

    private IdWorkerMain() {
    }

    public static void main(String[] args) throws Exception {
        // Standard output carries the IDs only: anything else that prints (logging) goes to standard error.
        java.io.OutputStream ids = new java.io.FileOutputStream(java.io.FileDescriptor.out);
        System.setOut(System.err);
        String strategy = args[0];
        HikariDataSource pool = new TestServices.JdbcEndpoint(args[1], args[2], "").pool(4);
        String table = args[3];
        String name = args[4];
        long count = Long.parseLong(args[5]);
        IdService service = strategy.equals("segment")
                ? SegmentIdService.builder(new JdbcSegmentStore(pool, table, 0, SchemaInitialization.ALWAYS,
                        Duration.ofSeconds(5))).settings(SegmentSettings.builder().step(1000).maxStep(20_000)
                        .bufferDuration(Duration.ofSeconds(1)).awaitTimeout(Duration.ofSeconds(10)).build()).build()
                : new TicketIdService(List.of(new TicketServer("worker", pool, table, 0, 1, true,
                        Duration.ofSeconds(5), Duration.ofSeconds(1), TimeSource.system())), false);
        BufferedWriter out = new BufferedWriter(new OutputStreamWriter(ids, StandardCharsets.US_ASCII), 1 << 16);
        for (long i = 0; count < 0 || i < count; i++) {
            out.write(Long.toString(service.nextId(name)));
            out.write('\n');
            if (i % 512 == 511) {
                out.flush();
            }
        }
        out.flush();
        System.exit(0);
    }
}
