package dev.idgen.mybatisplus;

import com.baomidou.mybatisplus.core.incrementer.IdentifierGenerator;
import com.baomidou.mybatisplus.core.metadata.TableInfo;
import com.baomidou.mybatisplus.core.metadata.TableInfoHelper;
import dev.idgen.core.IdArguments;
import dev.idgen.core.IdService;
import dev.idgen.core.form.UuidV7Generator;
import dev.idgen.spring.IdgenId;
import java.lang.reflect.Field;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * MyBatis-Plus's {@link IdentifierGenerator} on idgen, so that {@code @TableId(type = IdType.ASSIGN_ID)} takes its IDs
 * from a generator whose uniqueness does not rest on MyBatis-Plus's guess of a worker id from the host's address
 * (containers with the same address, or addresses that differ only outside the bits it keeps, collide).
 *
 * <p>{@code ASSIGN_ID} ({@link #nextId(Object)}) takes {@code ids.nextId(generator)}, the generator chosen per entity
 * class, first match wins: {@link IdgenId @IdgenId("name")} on the key field; the table's entry in
 * {@code idgen.mybatis-plus.generators}; the table name (MyBatis-Plus's {@link TableInfo#getTableName()}). Without an
 * entity ({@code IdWorker.getId()}) it takes the default generator. The key must be a {@code long}, {@code Long},
 * {@code String}, {@code BigInteger} or {@code BigDecimal}: MyBatis-Plus would narrow a 64-bit ID into an {@code int} key silently, so
 * such a key fails with an {@link IllegalStateException} naming the class and the field.
 *
 * <p>{@code ASSIGN_UUID} ({@link #nextUUID(Object)}) takes a UUIDv7 in the 32-character form MyBatis-Plus's columns
 * expect (lowercase hex, no dashes), time-ordered unlike MyBatis-Plus's random UUIDs, so inserts land at the end of a
 * key index.
 *
 * <p>The choice is worked out once per entity class ({@link ClassValue}); after that an ID costs the generator's call
 * and the {@code Long} MyBatis-Plus needs. Thread-safe.
 */
public final class IdgenIdentifierGenerator implements IdentifierGenerator {

    /**
     * The key types a 64-bit ID fits whole. MyBatis-Plus converts the ID to each without loss (BigDecimal through its
     * decimal string, for NUMBER(19) keys); it narrows into int, short and the floating-point types.
     */
    private static final Set<Class<?>> KEY_TYPES =
            Set.of(long.class, Long.class, String.class, BigInteger.class, BigDecimal.class);

    private static final String ALLOWED = "long, Long, String, BigInteger or BigDecimal";

    private final IdService ids;

    private final Map<String, String> byTable;

    private final String defaultGenerator;

    private final UuidV7Generator uuids = UuidV7Generator.builder().build();

    private final ClassValue<Target> targets = new ClassValue<>() {
        @Override
        protected Target computeValue(Class<?> type) {
            return target(type);
        }
    };

    /**
     * @param ids issues the IDs
     * @param byTable generator per table name, table names in lower case
     * @param defaultGenerator the generator of IDs asked for without an entity
     */
    public IdgenIdentifierGenerator(IdService ids, Map<String, String> byTable, String defaultGenerator) {
        this.ids = Objects.requireNonNull(ids, "ids");
        this.byTable = Map.copyOf(byTable);
        this.defaultGenerator = IdArguments.checkName(defaultGenerator);
    }

    @Override
    public Number nextId(Object entity) {
        return ids.nextId(generator(entity));
    }

    @Override
    public String nextUUID(Object entity) {
        return UuidV7Generator.compactHex(uuids.next());
    }

    /**
     * @param entity a MyBatis-Plus entity, or {@code null}
     * @return the generator its {@code ASSIGN_ID} key takes IDs from
     * @throws IllegalStateException naming the class and field when its key cannot hold a 64-bit ID, or naming the
     *         property to set when its table name is no generator name
     */
    public String generator(Object entity) {
        if (entity == null) {
            return defaultGenerator;
        }
        Target target = targets.get(entity.getClass());
        if (target.error() != null) {
            throw new IllegalStateException(target.error());
        }
        if (target.generator() == null) {
            // Not (yet) an entity MyBatis-Plus knows: worked out again next time, as its table info may come later.
            targets.remove(entity.getClass());
            return defaultGenerator;
        }
        return target.generator();
    }

    private Target target(Class<?> type) {
        TableInfo table = TableInfoHelper.getTableInfo(type);
        if (table == null || table.getKeyProperty() == null) {
            return new Target(null, null);
        }
        Field key = field(type, table.getKeyProperty());
        String where = type.getName() + "." + table.getKeyProperty();
        // MyBatis-Plus's own key type has the generics resolved (BaseEntity<ID> with a Long ID is Long), the field's
        // erased type would be Serializable: its type first, the field's only when it has none.
        Class<?> keyType = table.getKeyType() != null ? table.getKeyType() : key != null ? key.getType() : null;
        if (keyType != null && !KEY_TYPES.contains(keyType)) {
            return new Target(
                    null,
                    where + ": " + article(keyType.getSimpleName()) + " key with IdType.ASSIGN_ID, which MyBatis-Plus"
                            + " would fill with a 64-bit ID cut short; make it a " + ALLOWED
                            + " (or use another IdType)");
        }
        IdgenId annotation = key != null ? key.getAnnotation(IdgenId.class) : null;
        if (annotation != null) {
            if (!IdArguments.isName(annotation.value())) {
                return new Target(
                        null,
                        "@IdgenId(\"" + annotation.value() + "\") on " + where + " is no generator name: "
                                + IdArguments.NAME_RULE);
            }
            return new Target(annotation.value(), null);
        }
        String tableName = table.getTableName();
        String configured = tableName == null ? null : byTable.get(tableName.toLowerCase(Locale.ROOT));
        if (configured != null) {
            return new Target(configured, null);
        }
        if (!IdArguments.isName(tableName)) {
            return new Target(
                    null,
                    "The table name " + tableName + " of " + type.getName() + " is no idgen generator name ("
                            + IdArguments.NAME_RULE
                            + "); set idgen.mybatis-plus.generators[" + tableName
                            + "]=<generator>, or put @IdgenId(\"<generator>\") on " + where);
        }
        return new Target(tableName, null);
    }

    private static String article(String type) {
        return ("AEIOUaeiou".indexOf(type.charAt(0)) >= 0 ? "an " : "a ") + type;
    }

    private static Field field(Class<?> type, String name) {
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field field : c.getDeclaredFields()) {
                if (field.getName().equals(name)) {
                    return field;
                }
            }
        }
        return null;
    }

    /** What an entity class takes: a generator, or the error to raise; neither when it is no entity. */
    private record Target(String generator, String error) {}
}
