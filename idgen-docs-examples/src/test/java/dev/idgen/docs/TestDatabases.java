package dev.idgen.docs;

import dev.idgen.test.quick.NeedsServices;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * The real MariaDB and PostgreSQL these tests run on, found as the rest of the build finds them:
 * {@code IDGEN_TEST_MARIADB_URL} / {@code IDGEN_TEST_POSTGRES_URL} with {@code _USER} and {@code _PASSWORD} (.ci/run sets
 * them), else, outside CI, the local default ports. Each test gets a database of its own, dropped and created afresh.
 * A server that does not answer fails the test, saying what to start.
 */
@NeedsServices("MariaDB and PostgreSQL, from the IDGEN_TEST_* variables")
enum TestDatabases {
    MARIADB(
            "IDGEN_TEST_MARIADB",
            "jdbc:mariadb://127.0.0.1:3306/test",
            "root",
            "start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd"),
    POSTGRESQL(
            "IDGEN_TEST_POSTGRES",
            "jdbc:postgresql://127.0.0.1:5432/test",
            "postgres",
            "pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start");

    private final String env;
    private final String defaultUrl;
    private final String defaultUser;
    private final String start;

    TestDatabases(String env, String defaultUrl, String defaultUser, String start) {
        this.env = env;
        this.defaultUrl = defaultUrl;
        this.defaultUser = defaultUser;
        this.start = start;
    }

    /** A database of the test's own on this server: its JDBC URL, user and password. */
    record Database(String url, String user, String password) {}

    String serverUrl() {
        String url = System.getenv(env + "_URL");
        if (url == null || url.isBlank()) {
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                throw new IllegalStateException(
                        "This test needs a real " + this + ": set " + env + "_URL (.ci/run does)");
            }
            return defaultUrl;
        }
        return url.trim();
    }

    String user() {
        String user = System.getenv(env + "_USER");
        return user == null ? defaultUser : user;
    }

    String password() {
        String password = System.getenv(env + "_PASSWORD");
        return password == null ? "" : password;
    }

    /**
     * @param name the database, {@code idgen_} and lower-case letters, digits and underscores
     * @return that database, dropped if it existed and created empty
     */
    Database fresh(String name) {
        if (!name.matches("idgen_[a-z0-9_]+")) {
            throw new IllegalArgumentException(name);
        }
        String serverUrl = serverUrl();
        try (Connection connection = DriverManager.getConnection(serverUrl, user(), password());
                Statement statement = connection.createStatement()) {
            statement.execute(
                    this == POSTGRESQL
                            ? "DROP DATABASE IF EXISTS " + name + " WITH (FORCE)"
                            : "DROP DATABASE IF EXISTS " + name);
            statement.execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            throw new IllegalStateException(
                    "This test needs a real " + this + " at " + serverUrl + " (" + e.getMessage() + "): start it ("
                            + start + ") or set " + env + "_URL, _USER and _PASSWORD",
                    e);
        }
        return new Database(withDatabase(serverUrl, name), user(), password());
    }

    /** Runs statements as this server's administrator (the test user), e.g. the page's CREATE DATABASE and USER. */
    void runAsAdministrator(List<String> statements) {
        String serverUrl = serverUrl();
        try (Connection connection = DriverManager.getConnection(serverUrl, user(), password());
                Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(
                    "This test needs a real " + this + " at " + serverUrl + " (" + e.getMessage() + "): start it ("
                            + start + ") or set " + env + "_URL, _USER and _PASSWORD",
                    e);
        }
    }

    /** Drops the database and the user (role) of the same name, if they exist. */
    void dropDatabaseAndUser(String name) {
        if (!name.matches("idgen_[a-z0-9_]+")) {
            throw new IllegalArgumentException(name);
        }
        runAsAdministrator(
                this == POSTGRESQL
                        ? List.of("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)", "DROP ROLE IF EXISTS " + name)
                        : List.of("DROP DATABASE IF EXISTS " + name, "DROP USER IF EXISTS '" + name + "'@'%'"));
    }

    /** {@code jdbc:mariadb://h:p/test?x=y} with database {@code name}: {@code jdbc:mariadb://h:p/name?x=y}. */
    static String withDatabase(String url, String name) {
        int query = url.indexOf('?');
        String base = query < 0 ? url : url.substring(0, query);
        String rest = query < 0 ? "" : url.substring(query);
        int slash = base.indexOf('/', base.indexOf("//") + 2);
        return (slash < 0 ? base : base.substring(0, slash)) + "/" + name + rest;
    }
}
