package dev.idgen.spring.boot.autoconfigure.diagnostics;

/**
 * A set-up problem that keeps idgen from starting: a dependency missing from the classpath, a missing DataSource, a
 * missing table. It says what is wrong and what to do about it; {@link IdgenFailureAnalyzer} prints both in Spring
 * Boot's "APPLICATION FAILED TO START" report.
 */
public final class IdgenStartupException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String description;

    private final String action;

    /**
     * @param description what is wrong, naming the setting that asked for it
     * @param action what to do about it
     */
    public IdgenStartupException(String description, String action) {
        this(description, action, null);
    }

    /**
     * @param description what is wrong, naming the setting that asked for it
     * @param action what to do about it
     * @param cause the underlying failure, or {@code null}
     */
    public IdgenStartupException(String description, String action, Throwable cause) {
        super(description + ". " + action, cause);
        this.description = description;
        this.action = action;
    }

    /**
     * @param feature the setting that needs the dependency, e.g. {@code idgen.strategy=segment}
     * @param what the dependency in words, e.g. {@code Spring Data Redis with Lettuce}
     * @param missingClass a class of the dependency that is not on the classpath
     * @param coordinates the artifact to add, {@code groupId:artifactId}
     * @return the failure
     */
    public static IdgenStartupException missingDependency(
            String feature, String what, String missingClass, String coordinates) {
        return new IdgenStartupException(
                feature + " needs " + what + ", but " + missingClass + " is not on the classpath",
                "Add the dependency " + coordinates + " to your build, or choose" + " another setting for "
                        + feature.substring(0, Math.max(0, feature.indexOf('='))));
    }

    /**
     * @param feature the setting that needs a DataSource
     * @param alternative another way to satisfy it, or {@code null}
     * @return the failure
     */
    public static IdgenStartupException missingDataSource(String feature, String alternative) {
        return new IdgenStartupException(
                feature + " needs a DataSource, but there is no single DataSource bean",
                "Add org.springframework.boot:spring-boot-starter-jdbc and a"
                        + " JDBC driver, and set spring.datasource.url"
                        + (alternative == null ? "" : "; or " + alternative));
    }

    /**
     * @return what is wrong
     */
    public String description() {
        return description;
    }

    /**
     * @return what to do about it
     */
    public String action() {
        return action;
    }
}
