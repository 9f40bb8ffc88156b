package dev.idgen.shardingsphere;

import dev.idgen.core.IdArguments;
import dev.idgen.core.IdService;
import dev.idgen.core.InvalidArgumentException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Properties;
import org.apache.shardingsphere.infra.algorithm.core.context.AlgorithmSQLContext;
import org.apache.shardingsphere.infra.algorithm.keygen.core.KeyGenerateAlgorithm;

/**
 * ShardingSphere's key generator of type {@value #TYPE}: a table's keys from idgen, instead of ShardingSphere's own
 * Snowflake, whose worker id is guessed from the host and repeats across instances.
 *
 * <p>Inside a Spring application it takes the context's {@link IdService}, which the module's auto-configuration
 * {@linkplain IdgenRegistry registers} (props {@code registration}); it looks it up when it first generates keys, so
 * the ShardingSphere DataSource may be built before idgen's beans. Without Spring, props {@code jdbc-url} and the
 * others of {@link StandaloneSettings} give it an idgen of its own, shared with every algorithm of the same props.
 *
 * <p>The sequence name is props {@code generator}, or else the logical table's name: with the Spring starter a name
 * that is a configured generator ({@code idgen.generators.<name>}) is served by it, any other by the default one.
 */
public final class IdgenKeyGenerateAlgorithm implements KeyGenerateAlgorithm {

    /** The algorithm's type in ShardingSphere's rule configuration. */
    public static final String TYPE = "IDGEN";

    static final String GENERATOR = "generator";
    static final String REGISTRATION = "registration";

    private String generator;
    private String registration;
    private StandaloneSettings standalone;

    @Override
    public void init(Properties props) {
        AlgorithmProps read = new AlgorithmProps(TYPE, props);
        generator = read.text(GENERATOR);
        if (generator != null && !IdArguments.isName(generator)) {
            throw read.invalid(GENERATOR, generator, "must be " + IdArguments.NAME_RULE);
        }
        standalone = StandaloneSettings.of(read);
        registration = read.text(REGISTRATION);
        if (standalone != null && registration != null) {
            throw read.invalid(
                    REGISTRATION,
                    registration,
                    "names a Spring context's idgen, and props.jdbc-url configures one of the algorithm's own: set"
                            + " one of them");
        }
        if (registration == null) {
            registration = IdgenRegistry.DEFAULT_REGISTRATION;
        }
    }

    @Override
    public Collection<? extends Comparable<?>> generateKeys(AlgorithmSQLContext context, int keyGenerateCount) {
        String name = generator != null ? generator : tableName(context);
        IdService ids = idService();
        List<Long> result = new ArrayList<>(keyGenerateCount);
        // A multi-row insert may have more rows than one batch may hold: taken in batches of at most that many.
        for (int taken = 0; taken < keyGenerateCount; ) {
            int count = Math.min(IdService.MAX_BATCH_SIZE, keyGenerateCount - taken);
            for (long key : ids.nextIds(name, count)) {
                result.add(key);
            }
            taken += count;
        }
        return result;
    }

    @Override
    public String getType() {
        return TYPE;
    }

    private IdService idService() {
        if (standalone != null) {
            return StandaloneIdgens.get(standalone);
        }
        // Looked up on every call, not kept: a context closed and started again (tests, devtools) registers anew.
        IdService current = IdgenRegistry.find(registration);
        if (current == null) {
            throw new IllegalStateException("The " + TYPE + " key generator found no idgen registered as '"
                    + registration + "'. In a Spring Boot application add dev.idgen:idgen-shardingsphere beside"
                    + " idgen-spring-boot-starter (its auto-configuration registers the context's IdService as "
                    + IdgenRegistry.REGISTRATION_PROPERTY + ", default '" + IdgenRegistry.DEFAULT_REGISTRATION
                    + "'; idgen.shardingsphere.enabled=false switches it off), and make props.registration match it."
                    + " If the context's idgen is set up, the insert likely ran before the context registered it:"
                    + " SQL initialization (schema.sql/data.sql), Flyway or Liquibase migrations, or a @PostConstruct"
                    + " method inserting through ShardingSphere while the context starts; take those keys in the SQL"
                    + " itself or insert once the context has started. Without Spring set props.jdbc-url (and"
                    + " jdbc-username, jdbc-password) to give the algorithm an idgen of its own");
        }
        return current;
    }

    private static String tableName(AlgorithmSQLContext context) {
        String table = context == null ? null : context.getTableName();
        if (!IdArguments.isName(table)) {
            throw new InvalidArgumentException(
                    GENERATOR,
                    table,
                    TYPE + " key generator: the logical table name '" + table + "' is not an idgen sequence name ("
                            + IdArguments.NAME_RULE + "): set props." + GENERATOR + " to the idgen generator to use");
        }
        return table;
    }
}
