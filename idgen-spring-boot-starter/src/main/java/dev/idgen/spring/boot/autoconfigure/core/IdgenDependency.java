package dev.idgen.spring.boot.autoconfigure.core;

import java.util.List;
import org.springframework.util.ClassUtils;

/**
 * An optional dependency that a strategy or an option may need: what it is, the artifact to add, and classes that show
 * it is present. {@code IdgenRequirements} (in the auto-configuration) checks them before any bean is created, so that a missing one is reported
 * with the setting that needs it rather than as a raw {@link NoClassDefFoundError}.
 *
 * @param what what it is, for the failure report
 * @param coordinates the artifact to add
 * @param classes classes that are present when it is
 */
public record IdgenDependency(String what, String coordinates, String... classes) {

    /** The database strategies reach their table through the DataSource bean that Spring Boot's JDBC support makes. */
    public static final IdgenDependency JDBC = new IdgenDependency(
            "spring-boot-jdbc (DataSource)",
            "org.springframework.boot:spring-boot-starter-jdbc",
            "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration");

    /** Spring Data Redis on Lettuce, for every Redis backend. */
    public static final IdgenDependency REDIS = new IdgenDependency(
            "Spring Data Redis with Lettuce",
            "org.springframework.boot:spring-boot-starter-data-redis (spring-boot-data-redis and lettuce-core)",
            "org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory",
            "io.lettuce.core.RedisClient");

    /** The public and shard forms: FF1 on Bouncy Castle, and xxHash64 from zero-allocation-hashing. */
    public static final IdgenDependency FORMS = new IdgenDependency(
            "idgen-forms (the public and shard forms)",
            "dev.idgen:idgen-forms",
            "dev.idgen.forms.publicid.PublicIdCodec",
            "dev.idgen.forms.shard.ShardedSnowflake");

    /** idgen's client of idgen servers, on the JDK's HttpClient. */
    public static final IdgenDependency REMOTE = new IdgenDependency(
            "idgen-client (blocks from idgen servers)",
            "dev.idgen:idgen-client",
            "dev.idgen.client.RemoteSegmentStore");

    /**
     * @return every optional dependency above (the consensus engines declare their own), for the ahead-of-time hints
     *     that keep their classes findable by name in a native image
     */
    public static List<IdgenDependency> all() {
        return List.of(JDBC, REDIS, FORMS, REMOTE);
    }

    /**
     * @return the first of its classes that {@code classLoader} cannot load, or null when it is present
     */
    public String missingClass(ClassLoader classLoader) {
        for (String name : classes) {
            if (!ClassUtils.isPresent(name, classLoader)) {
                return name;
            }
        }
        return null;
    }
}
