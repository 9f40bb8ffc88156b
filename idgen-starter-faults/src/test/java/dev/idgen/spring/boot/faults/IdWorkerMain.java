package dev.idgen.spring.boot.faults;

import com.zaxxer.hikari.HikariDataSource;
import dev.idgen.core.IdService;
import dev.idgen.core.TimeSource;
import dev.idgen.core.segment.Segment;
import dev.idgen.core.segment.SegmentIdService;
import dev.idgen.core.segment.SegmentSettings;
import dev.idgen.core.segment.SegmentStore;
import dev.idgen.jdbc.JdbcSegmentStore;
import dev.idgen.jdbc.SchemaInitialization;
import dev.idgen.jdbc.TicketIdService;
import dev.idgen.jdbc.TicketServer;
import dev.idgen.test.services.TestServices;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;

/**
 * A separate JVM that draws IDs and writes each one to standard output, for the multi-process tests. An ID counts as
 * handed out once it has reached the pipe, so IDs still in this process's buffer when it is killed were never handed
 * out.
 *
 * <p>Arguments: {@code segment|ticket jdbcUrl user password table name count [segmentLog]} (count -1: until
 * killed), the credentials from the test's {@link TestServices}. With {@code segmentLog}, each segment the segment
 * strategy allocates is appended to that file as a line {@code first last}, written before the segment is used, so
 * that the test can tell where in its segment a killed process stopped.
 */
public final class IdWorkerMain {

    private IdWorkerMain() {}

    public static void main(String[] args) throws Exception {
        // Standard output carries the IDs only: anything else that prints (logging) goes to standard error.
        java.io.OutputStream ids = new java.io.FileOutputStream(java.io.FileDescriptor.out);
        System.setOut(System.err);
        String strategy = args[0];
        HikariDataSource pool = new TestServices.JdbcEndpoint(args[1], args[2], args[3]).pool(4);
        String table = args[4];
        String name = args[5];
        long count = Long.parseLong(args[6]);
        IdService service = strategy.equals("segment")
                ? SegmentIdService.builder(segmentStore(pool, table, args))
                        .settings(SegmentSettings.builder()
                                .step(1000)
                                .maxStep(20_000)
                                .bufferDuration(Duration.ofSeconds(1))
                                .awaitTimeout(Duration.ofSeconds(10))
                                .build())
                        .build()
                : new TicketIdService(
                        List.of(new TicketServer(
                                "worker",
                                pool,
                                table,
                                0,
                                1,
                                true,
                                // Generous: the test proves uniqueness and density, which a call failing on a slow
                                // shared MariaDB would break (seen beside stress-ng at 5 s) without any fault injected.
                                Duration.ofSeconds(30),
                                Duration.ofSeconds(1),
                                TimeSource.system())),
                        false);
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

    private static SegmentStore segmentStore(HikariDataSource pool, String table, String[] args) {
        SegmentStore store = new JdbcSegmentStore(pool, table, 0, SchemaInitialization.ALWAYS, Duration.ofSeconds(5));
        return args.length > 7 ? new LoggingSegmentStore(store, Path.of(args[7])) : store;
    }

    /** Appends each segment to a file before handing it on; a line is on disk before any of its IDs is used. */
    private record LoggingSegmentStore(SegmentStore store, Path log) implements SegmentStore {

        @Override
        public Segment allocate(String name, long step) {
            return logged(store.allocate(name, step));
        }

        @Override
        public Segment allocateAbove(String name, long step, long floor) {
            return logged(store.allocateAbove(name, step, floor));
        }

        @Override
        public void checkAvailable() {
            store.checkAvailable();
        }

        private synchronized Segment logged(Segment segment) {
            try {
                Files.writeString(
                        log,
                        segment.first() + " " + segment.last() + "\n",
                        StandardCharsets.US_ASCII,
                        StandardOpenOption.CREATE,
                        StandardOpenOption.APPEND,
                        StandardOpenOption.WRITE);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return segment;
        }
    }
}
