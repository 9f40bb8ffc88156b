package dev.idgen.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import org.junit.jupiter.api.Test;

/**
 * How a failure is read from the SQLStates and error codes MySQL, MariaDB, PostgreSQL and H2 report, without a
 * database: each store retries, recreates or reports by these rules.
 */
class SqlStatesTest {

    @Test
    void aDuplicateKeyIsAnyIntegrityConstraintViolation() {
        assertThat(SqlStates.isDuplicateKey(new SQLException("dup", "23000", 1062)))
                .isTrue();
        assertThat(SqlStates.isDuplicateKey(new SQLException("dup", "23505"))).isTrue();
        assertThat(SqlStates.isDuplicateKey(new SQLException("other", "42000"))).isFalse();
        assertThat(SqlStates.isDuplicateKey(new SQLException("no state"))).isFalse();
    }

    @Test
    void aDeadlockIsMysqlsOrPostgresqls() {
        assertThat(SqlStates.isDeadlock(new SQLException("deadlock", "40001", 1213)))
                .isTrue();
        assertThat(SqlStates.isDeadlock(new SQLException("deadlock", "40P01"))).isTrue();
        assertThat(SqlStates.isDeadlock(new SQLException("rollback", "40002"))).isFalse();
        assertThat(SqlStates.isDeadlock(new SQLException("no state"))).isFalse();
    }

    @Test
    void aMissingTableOrSchemaOnEveryDatabase() {
        for (String state : new String[] {"42S02", "42S03", "42S04", "90079", "42P01", "3F000"}) {
            assertThat(SqlStates.isMissingTable(new SQLException("missing", state)))
                    .as(state)
                    .isTrue();
        }
        // MySQL's error code, whatever state a driver reports with it.
        assertThat(SqlStates.isMissingTable(new SQLException("missing", "HY000", 1146)))
                .isTrue();
        assertThat(SqlStates.isMissingTable(new SQLException("missing", null, 1146)))
                .isTrue();
        assertThat(SqlStates.isMissingTable(new SQLException("syntax", "42000", 1064)))
                .isFalse();
        assertThat(SqlStates.isMissingTable(new SQLException("no state"))).isFalse();
    }

    @Test
    void aBrokenConnectionByStateOrByClass() {
        assertThat(SqlStates.isBrokenConnection(new SQLException("link failure", "08S01")))
                .isTrue();
        assertThat(SqlStates.isBrokenConnection(new SQLException("shutting down", "57P01")))
                .isTrue();
        assertThat(SqlStates.isBrokenConnection(new SQLNonTransientConnectionException("closed")))
                .isTrue();
        assertThat(SqlStates.isBrokenConnection(new SQLRecoverableException("recover")))
                .isTrue();
        assertThat(SqlStates.isBrokenConnection(new SQLException("query timeout", "70100")))
                .isFalse();
        assertThat(SqlStates.isBrokenConnection(new SQLException("cancelled", "57014")))
                .isFalse();
        assertThat(SqlStates.isBrokenConnection(new SQLException("no state"))).isFalse();
    }
}
