package dev.idgen.spring.boot.autoconfigure.diagnostics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.jdbc.JdbcUrls;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.core.env.StandardEnvironment;

/**
 * The README's first steps with the JDBC driver missing ({@code spring.datasource.url=jdbc:mariadb://...} without
 * mariadb-java-client): the failure report names the driver, the URL's database and the dependency to add, instead of
 * a stack trace through idgen's beans. The application runs on the test class path without the driver's jar
 * ({@link DriverlessApplication}): a {@link FilteredClassLoader} on the context does not hide the driver from Hikari,
 * which loads it through its own class loader, and the context then starts.
 */
class IdgenJdbcDriverFailureTest {

    @ParameterizedTest(name = "{0} on {2} without {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "ticket | /org/mariadb/jdbc/ | jdbc:mariadb://127.0.0.1:3306/test | org.mariadb.jdbc.Driver | MariaDB | org.mariadb.jdbc:mariadb-java-client",
                "segment | /org/mariadb/jdbc/ | jdbc:mariadb://127.0.0.1:3306/test | org.mariadb.jdbc.Driver | MariaDB | org.mariadb.jdbc:mariadb-java-client",
                "segment | /org/postgresql/ | jdbc:postgresql://127.0.0.1:5432/test | org.postgresql.Driver | PostgreSQL | org.postgresql:postgresql",
                "ticket | /com/mysql/ | jdbc:mysql://127.0.0.1:3306/test | com.mysql.cj.jdbc.Driver | MySQL | com.mysql:mysql-connector-j",
                "ticket | /com/h2database/ | jdbc:h2:mem:idgen-driver | org.h2.Driver | H2 | com.h2database:h2",
            })
    void aMissingDriverNamesItTheDatabaseAndTheDependencyToAdd(
            String strategy, String jar, String url, String driver, String database, String dependency)
            throws Exception {
        String[] report = DriverlessApplication.start(
                jar,
                "--idgen.strategy=" + strategy,
                "--spring.main.banner-mode=off",
                "--spring.datasource.url=" + url,
                "--spring.datasource.username=root",
                "--spring.datasource.password=s3cret");
        assertThat(report).as("the application failed to start").isNotNull();
        assertThat(report[2])
                .as("the failure it reports")
                .endsWith("java.lang.ClassNotFoundException: " + driver + "\n");
        assertThat(report[3]).isEqualTo(IdgenJdbcDriverFailureAnalyzer.class.getName());
        assertThat(report[0])
                .isEqualTo("The JDBC driver " + driver + " for " + database + " (spring.datasource.url=" + url
                        + ") is not on the classpath, so no DataSource can be created for idgen or the application");
        assertThat(report[1]).isEqualTo("Add the dependency " + dependency + " (runtime scope) to the application");
        assertThat(report[0] + report[1]).doesNotContain("s3cret");
    }

    @Test
    void aUrlsCredentialsAreLeftOutOfTheReport() throws Exception {
        String[] report = DriverlessApplication.start(
                "/org/mariadb/jdbc/",
                "--idgen.strategy=ticket",
                "--spring.main.banner-mode=off",
                "--spring.datasource.url=jdbc:mariadb://app:s3cret@127.0.0.1:3306/test?password=s3cret&useSsl=false");
        assertThat(report[0])
                .contains("(spring.datasource.url=jdbc:mariadb://127.0.0.1:3306/test)")
                .doesNotContain("s3cret");
        assertThat(JdbcUrls.withoutCredentials("jdbc:oracle:thin:scott/tiger@db:1521:orcl"))
                .isEqualTo("jdbc:oracle:thin:@db:1521:orcl");
        assertThat(JdbcUrls.withoutCredentials("jdbc:h2:mem:x;USER=sa;PASSWORD=s3cret"))
                .isEqualTo("jdbc:h2:mem:x");
    }

    @Test
    void aConfiguredDriverThatIsMissingGetsAGeneralAction() throws Exception {
        String[] report = DriverlessApplication.start(
                "/nothing-hidden/",
                "--idgen.strategy=ticket",
                "--spring.main.banner-mode=off",
                "--spring.datasource.url=jdbc:acme://127.0.0.1/test",
                "--spring.datasource.driver-class-name=com.acme.jdbc.Driver");
        assertThat(report[0])
                .isEqualTo("The JDBC driver com.acme.jdbc.Driver (spring.datasource.url="
                        + "jdbc:acme://127.0.0.1/test) is not on the classpath, so no DataSource can be created for idgen or"
                        + " the application");
        assertThat(report[1])
                .isEqualTo(
                        "Add the dependency that holds com.acme.jdbc.Driver (the JDBC driver of your"
                                + " database, runtime scope) to the application, or correct spring.datasource.driver-class-name");
    }

    @Test
    void aFailureThatIsNotAMissingDriverIsLeftToTheOtherAnalyzers() {
        IdgenJdbcDriverFailureAnalyzer analyzer = new IdgenJdbcDriverFailureAnalyzer(new StandardEnvironment());
        // A class missing inside a driver that is present, or any other class, is not a missing driver.
        assertThat(analyzer.analyze(
                        new IllegalStateException("x", new ClassNotFoundException("org.mariadb.jdbc.plugin.Whatever"))))
                .isNull();
        assertThat(analyzer.analyze(new RuntimeException(new ClassNotFoundException("com.example.Missing"))))
                .isNull();
        // Boot's message for a driver class nobody configured.
        assertThat(analyzer.analyze(new IllegalStateException("Cannot load driver class: com.acme.Driver")))
                .isNull();
        FailureAnalysis missing = analyzer.analyze(new RuntimeException(
                "Failed to load driver class org.h2.Driver", new ClassNotFoundException("org.h2.Driver")));
        assertThat(missing).isNotNull();
        assertThat(missing.getAction())
                .isEqualTo("Add the dependency com.h2database:h2 (runtime scope) to the" + " application");
    }
}
