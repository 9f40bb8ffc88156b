package dev.idgen.spring;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.ibatis.executor.Executor;
import org.apache.ibatis.mapping.MappedStatement;
import org.apache.ibatis.mapping.SqlCommandType;
import org.apache.ibatis.plugin.Interceptor;
import org.apache.ibatis.plugin.Intercepts;
import org.apache.ibatis.plugin.Invocation;
import org.apache.ibatis.plugin.Signature;

/**
 * MyBatis's hook for {@link IdgenId}: before an {@code INSERT} statement runs, fills in the unset IDs ({@code null},
 * or 0 for a primitive {@code long}) of its parameter; an ID that is already set is kept. The parameter may be the
 * entity, a {@code Collection} or an array of entities (a multi-row insert), or the map MyBatis makes of several
 * parameters or of a single collection ({@code list}, {@code collection}, {@code array}, {@code @Param} names): the
 * entities in its values are filled in, each once. A batch's IDs are drawn in one call per generator. Statements of
 * a {@code BATCH} executor pass here one by one, so they are covered too.
 */
@Intercepts(
        @Signature(
                type = Executor.class,
                method = "update",
                args = {MappedStatement.class, Object.class}))
public final class IdgenIdInterceptor implements Interceptor {

    private final IdgenEntityIds ids;

    /**
     * @param ids fills in the IDs
     */
    public IdgenIdInterceptor(IdgenEntityIds ids) {
        this.ids = Objects.requireNonNull(ids, "ids");
    }

    @Override
    public Object intercept(Invocation invocation) throws Throwable {
        Object[] args = invocation.getArgs();
        if (args[0] instanceof MappedStatement statement
                && statement.getSqlCommandType() == SqlCommandType.INSERT
                && args[1] != null) {
            List<Object> entities = entities(args[1]);
            if (entities.size() == 1) {
                ids.fill(entities.get(0));
            } else if (!entities.isEmpty()) {
                ids.fillAll(entities);
            }
        }
        return invocation.proceed();
    }

    /**
     * The entities a statement's parameter holds, each once: several keys of MyBatis's parameter map name the same
     * collection ({@code collection} and {@code list}, a {@code @Param} name and {@code param1}).
     */
    private static List<Object> entities(Object parameter) {
        Set<Object> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        List<Object> entities = new ArrayList<>();
        if (parameter instanceof Map<?, ?> map) {
            for (Object value : map.values()) {
                addAll(value, seen, entities);
            }
        } else {
            addAll(parameter, seen, entities);
        }
        return entities;
    }

    private static void addAll(Object value, Set<Object> seen, List<Object> entities) {
        if (value instanceof Collection<?> collection) {
            if (seen.add(collection)) {
                collection.forEach(element -> add(element, seen, entities));
            }
        } else if (value instanceof Object[] array) {
            if (seen.add(array)) {
                for (Object element : array) {
                    add(element, seen, entities);
                }
            }
        } else {
            add(value, seen, entities);
        }
    }

    private static void add(Object value, Set<Object> seen, List<Object> entities) {
        if (value != null && !IdgenIdMember.of(value.getClass()).isEmpty() && seen.add(value)) {
            entities.add(value);
        }
    }
}
