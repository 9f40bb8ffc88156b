package dev.idgen.spring.boot.autoconfigure.diagnostics;

import dev.idgen.jdbc.JdbcUrls;
import java.util.List;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;

/**
 * Reports a JDBC driver missing from the class path ({@code spring.datasource.url=jdbc:mariadb://...} without
 * mariadb-java-client), which otherwise fails start-up with a stack trace through idgen's beans ({@code idService},
 * {@code idForms}) and {@code ClassNotFoundException: org.mariadb.jdbc.Driver} at its bottom: the driver, the
 * database of the URL, and the dependency to add. It answers only when the cause chain holds a driver class that could
 * not be loaded: a {@link ClassNotFoundException} of a known driver or of {@code spring.datasource.driver-class-name},
 * or Spring Boot's "Cannot load driver class" for the configured one.
 */
public final class IdgenJdbcDriverFailureAnalyzer implements FailureAnalyzer, Ordered {

    static final String URL = "spring.datasource.url";

    static final String DRIVER = "spring.datasource.driver-class-name";

    /** Spring Boot's message when {@code spring.datasource.driver-class-name} cannot be loaded. */
    private static final String CANNOT_LOAD = "Cannot load driver class: ";

    private static final List<Driver> KNOWN = List.of(
            new Driver("org.mariadb.jdbc.Driver", "MariaDB", "org.mariadb.jdbc:mariadb-java-client"),
            new Driver("org.postgresql.Driver", "PostgreSQL", "org.postgresql:postgresql"),
            new Driver("com.mysql.cj.jdbc.Driver", "MySQL", "com.mysql:mysql-connector-j"),
            new Driver("com.mysql.jdbc.Driver", "MySQL", "com.mysql:mysql-connector-j"),
            new Driver("org.h2.Driver", "H2", "com.h2database:h2"));

    private final Environment environment;

    /**
     * @param environment where {@code spring.datasource.*} were set; may be null
     */
    IdgenJdbcDriverFailureAnalyzer(Environment environment) {
        this.environment = environment;
    }

    @Override
    public FailureAnalysis analyze(Throwable failure) {
        String missing = missingDriver(failure);
        if (missing == null) {
            return null;
        }
        Driver known = KNOWN.stream()
                .filter(driver -> driver.className().equals(missing))
                .findFirst()
                .orElse(null);
        String url = environment == null ? null : environment.getProperty(URL);
        StringBuilder description = new StringBuilder("The JDBC driver ").append(missing);
        if (known != null) {
            description.append(" for ").append(known.database());
        }
        if (url != null) {
            description
                    .append(" (")
                    .append(URL)
                    .append('=')
                    .append(JdbcUrls.withoutCredentials(url))
                    .append(')');
        }
        description.append(" is not on the classpath, so no DataSource can be created for idgen or the application");
        String action = known != null
                ? "Add the dependency " + known.dependency() + " (runtime scope) to the application"
                : "Add the dependency that holds " + missing + " (the JDBC driver of your database, runtime scope) to"
                        + " the application, or correct " + DRIVER;
        return new FailureAnalysis(description.toString(), action, failure);
    }

    /** The driver class the chain failed to load, or null when the failure is not a missing driver. */
    private String missingDriver(Throwable failure) {
        String configured = environment == null ? null : environment.getProperty(DRIVER);
        int depth = 0;
        for (Throwable cause = failure; cause != null && depth < 64; cause = cause.getCause(), depth++) {
            String message = cause.getMessage();
            if (cause instanceof ClassNotFoundException && message != null) {
                String name = message.trim();
                if (name.equals(configured)
                        || KNOWN.stream().anyMatch(driver -> driver.className().equals(name))) {
                    return name;
                }
            }
            if (cause instanceof IllegalStateException && message != null && message.startsWith(CANNOT_LOAD)) {
                String name = message.substring(CANNOT_LOAD.length()).trim();
                if (name.equals(configured)) {
                    return name;
                }
            }
            if (cause.getCause() == cause) {
                break;
            }
        }
        return null;
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }

    private record Driver(String className, String database, String dependency) {}
}
