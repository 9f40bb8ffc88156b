package dev.idgen.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import dev.idgen.core.InvalidArgumentException;
import dev.idgen.test.services.TestServices;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The worker id lease store contract on H2, and the checks that need no particular database. */
class JdbcWorkerIdLeaseStoreH2Test extends JdbcWorkerIdLeaseStoreContract {

    @Override
    protected TestServices.JdbcEndpoint endpoint() {
        return new TestServices.JdbcEndpoint("jdbc:h2:mem:idgen-lease-contract;DB_CLOSE_DELAY=-1", "sa", "");
    }

    @Override
    protected String urlOn(int port) {
        return "jdbc:h2:tcp://127.0.0.1:" + port + "/mem:idgen-lease";
    }

    @Override
    protected String clockQuery() {
        return "SELECT DATEDIFF(MILLISECOND, TIMESTAMP WITH TIME ZONE '1970-01-01 00:00:00+00', CURRENT_TIMESTAMP)";
    }

    @Test
    void badTableNamesFailNamingTheArgument() {
        HikariDataSource pool = pool(1);
        for (String bad :
                Arrays.asList(null, "", "idgen-worker", "a.b.c", "idgen_worker; DROP TABLE x", "1table", "worker id")) {
            assertThatThrownBy(() ->
                            new JdbcWorkerIdLeaseStore(pool, bad, SchemaInitialization.ALWAYS, Duration.ofSeconds(1)))
                    .isInstanceOf(InvalidArgumentException.class)
                    .hasMessageContaining("table")
                    .satisfies(e -> assertThat(((InvalidArgumentException) e).argument())
                            .isEqualTo("table"));
        }
        for (String good : List.of(JdbcWorkerIdLeaseStore.DEFAULT_TABLE, "app.idgen_worker", "Worker_2")) {
            assertThat(new JdbcWorkerIdLeaseStore(pool, good, SchemaInitialization.NEVER, Duration.ofSeconds(1))
                            .table())
                    .isEqualTo(good);
        }
    }

    @Test
    void theEmbeddedDefaultCreatesTheTableOnH2() {
        assertThat(store(pool(1), SchemaInitialization.EMBEDDED, Duration.ofSeconds(1))
                        .acquire("owner-embedded", 0, TTL, REUSE_DELAY)
                        .workerId())
                .isZero();
    }
}
