package dev.idgen.spring.boot.autoconfigure.jdbc;

import dev.idgen.core.StoreUnavailableException;
import dev.idgen.jdbc.SchemaInitialization;
import dev.idgen.jdbc.TableMissingException;
import dev.idgen.spring.boot.autoconfigure.core.IdgenGenerators;
import dev.idgen.spring.boot.autoconfigure.diagnostics.IdgenStartupException;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * The start-up check of a segment or worker id lease table: a table that is missing fails start-up naming it, the
 * DDL and migrations idgen ships and the property that creates it, while a database that does not answer does not
 * (the application starts while its database is down; the store reports it on use and in health). The ticket table
 * has a check of its own, per ticket server (in the ticket package, which sits above this one).
 */
public final class TableCheck {

    private static final Log LOG = LogFactory.getLog(TableCheck.class);

    private TableCheck() {}

    /**
     * Runs {@code check} (which connects, creates the table if configured and reads it) for at most
     * 2 {@code jdbc.timeout} + 5s: borrowing a connection from a pool whose database is down can take the pool's
     * own connection timeout (Hikari's is 30s), which start-up should not wait for.
     *
     * @param feature what uses the table, e.g. {@code idgen.strategy=segment}
     * @param tableProperty the property naming the table, relative to the generator, e.g. {@code jdbc.table}
     * @throws IdgenStartupException when the table is missing
     */
    public static void check(
            IdgenGenerators.Definition definition, String feature, String tableProperty, Runnable check) {
        JdbcProperties jdbc = definition.settings(JdbcProperties.SECTION);
        Duration timeout = jdbc.checkedTimeout(definition.property("jdbc"));
        FutureTask<Void> task = new FutureTask<>(check, null);
        Thread thread = new Thread(task, "idgen-table-check");
        thread.setDaemon(true);
        thread.start();
        try {
            task.get(timeout.multipliedBy(2).plusSeconds(5).toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof TableMissingException missing) {
                throw missingTable(definition, feature, tableProperty, jdbc.getInitializeSchema(), missing);
            }
            if (e.getCause() instanceof StoreUnavailableException unavailable) {
                LOG.warn(feature + ": the database is unavailable at start-up; its table is checked again on use: "
                        + unavailable.getMessage());
                return;
            }
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IllegalStateException(e.getCause());
        } catch (TimeoutException e) {
            task.cancel(true);
            LOG.warn(feature + ": the database did not answer the start-up check of its table within "
                    + timeout.multipliedBy(2).plusSeconds(5) + "; it is checked again on use");
        } catch (InterruptedException e) {
            task.cancel(true);
            Thread.currentThread().interrupt();
        }
    }

    static IdgenStartupException missingTable(
            IdgenGenerators.Definition definition,
            String feature,
            String tableProperty,
            SchemaInitialization initialization,
            TableMissingException missing) {
        String initialize = definition.property("jdbc.initialize-schema");
        String why = switch (initialization) {
            case NEVER -> initialize + "=never";
            case EMBEDDED -> initialize + "=embedded, which creates it on an embedded H2 database only";
            // Only when the table vanished between its creation and the check, or CREATE failed quietly.
            case ALWAYS -> initialize + "=always, but it is not there after creating it";
        };
        return new IdgenStartupException(
                feature + " needs the " + words(missing.kind()) + " table "
                        + missing.table() + " (" + definition.property(tableProperty)
                        + "), but it does not exist in the"
                        + " database, and idgen does not create it (" + why + ")",
                IdgenSchemaAdvice.createTable(missing) + "; or " + IdgenSchemaAdvice.initializeSchema(definition),
                missing);
    }

    private static String words(String kind) {
        return switch (kind.toLowerCase(Locale.ROOT)) {
            case "worker" -> "worker id lease";
            default -> kind;
        };
    }
}
