package dev.idgen.benchmarks;

import com.zaxxer.hikari.HikariDataSource;
import dev.idgen.core.TimeSource;
import dev.idgen.jdbc.TicketIdService;
import dev.idgen.jdbc.TicketServer;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The ticket strategy on a real MariaDB beside the raw JDBC it wraps: {@code UPDATE ... SET id = LAST_INSERT_ID(id +
 * 1)} and {@code SELECT LAST_INSERT_ID()} on one pooled connection. Same pool size, a hot row each. Subclasses fix
 * the thread count.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public abstract class TicketMariaDbBenchmarks {

    private static final String TABLE = "idgen_bench_ticket";

    private HikariDataSource pool;
    private TicketIdService tickets;

    @Setup
    public void setUp() throws SQLException {
        pool = MariaDb.pool(16);
        try (Connection connection = pool.getConnection();
                Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS " + TABLE);
        }
        tickets = new TicketIdService(
                List.of(new TicketServer(
                        "bench",
                        pool,
                        TABLE,
                        0,
                        1,
                        true,
                        Duration.ofSeconds(5),
                        Duration.ofSeconds(1),
                        TimeSource.system())),
                false);
        tickets.nextId("idgen");
        try (Connection connection = pool.getConnection();
                Statement statement = connection.createStatement()) {
            statement.execute("INSERT IGNORE INTO " + TABLE + " (name, id, increment) VALUES ('raw', 0, 1)");
        }
    }

    @TearDown
    public void tearDown() {
        pool.close();
    }

    @Benchmark
    public long idgenTicket() {
        return tickets.nextId("idgen");
    }

    @Benchmark
    public long rawJdbc() throws SQLException {
        return MariaDb.rawTicket(pool, TABLE, "raw");
    }
}
