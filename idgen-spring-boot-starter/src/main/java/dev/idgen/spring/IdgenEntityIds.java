package dev.idgen.spring;

import dev.idgen.core.IdService;
import dev.idgen.core.form.IdForms;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Fills in the {@link IdgenId} members of entities that are still unset ({@code null}, or 0 for a primitive
 * {@code long}); a member that already holds an ID keeps it. A {@code long} or {@code Long} member takes
 * {@code ids.nextId(name)}, a {@code String} member {@code forms.form(name).next()}.
 *
 * <p>The Spring Data JDBC callback and the MyBatis interceptor fill entities through it; it also serves code that
 * inserts rows by other means. Thread-safe.
 */
public final class IdgenEntityIds {

    private final IdService ids;

    private final IdForms forms;

    /**
     * @param ids issues the 64-bit IDs
     * @param forms issues the string IDs
     */
    public IdgenEntityIds(IdService ids, IdForms forms) {
        this.ids = Objects.requireNonNull(ids, "ids");
        this.forms = Objects.requireNonNull(forms, "forms");
    }

    /**
     * @param type a class
     * @return whether it (or a superclass) has an {@link IdgenId} member
     * @throws IllegalStateException naming the class, the member and the allowed types when a member cannot be
     *         filled in
     */
    public static boolean hasIdgenIds(Class<?> type) {
        return !IdgenIdMember.of(Objects.requireNonNull(type, "type")).isEmpty();
    }

    /**
     * Fills in the entity's unset {@link IdgenId} members.
     *
     * @param entity the entity, or {@code null} (nothing to do)
     * @param <T> its type
     * @return the same entity
     * @throws IllegalStateException naming the class, the member and the allowed types when a member cannot be
     *         filled in
     */
    public <T> T fill(T entity) {
        if (entity == null) {
            return null;
        }
        for (IdgenIdMember member : IdgenIdMember.of(entity.getClass())) {
            if (member.isUnset(entity)) {
                member.set(entity, next(member.generator(), member.kind()));
            }
        }
        return entity;
    }

    /**
     * Fills in the unset {@link IdgenId} members of several entities, drawing each generator's IDs in one batch.
     *
     * @param entities the entities; {@code null} elements are skipped
     * @throws IllegalStateException naming the class, the member and the allowed types when a member cannot be
     *         filled in
     */
    public void fillAll(Iterable<?> entities) {
        Objects.requireNonNull(entities, "entities");
        // One batch per generator and kind: a batch is one round trip for the segment, ticket and redis strategies.
        Map<Batch, List<Slot>> batches = new LinkedHashMap<>();
        for (Object entity : entities) {
            if (entity == null) {
                continue;
            }
            for (IdgenIdMember member : IdgenIdMember.of(entity.getClass())) {
                if (member.isUnset(entity)) {
                    boolean string = member.kind() == IdgenIdMember.Kind.STRING;
                    batches.computeIfAbsent(new Batch(member.generator(), string), key -> new ArrayList<>())
                            .add(new Slot(entity, member));
                }
            }
        }
        batches.forEach((batch, slots) -> {
            for (int from = 0; from < slots.size(); from += IdService.MAX_BATCH_SIZE) {
                int count = Math.min(IdService.MAX_BATCH_SIZE, slots.size() - from);
                Object[] values = batch.string()
                        ? forms.form(batch.generator()).next(count)
                        : boxed(ids.nextIds(batch.generator(), count));
                for (int i = 0; i < count; i++) {
                    Slot slot = slots.get(from + i);
                    slot.member().set(slot.entity(), values[i]);
                }
            }
        });
    }

    /**
     * @param generator the generator name
     * @param kind the member's kind
     * @return the next ID for a member of that kind
     */
    Object next(String generator, IdgenIdMember.Kind kind) {
        return kind == IdgenIdMember.Kind.STRING ? forms.form(generator).next() : ids.nextId(generator);
    }

    private static Long[] boxed(long[] values) {
        Long[] boxed = new Long[values.length];
        for (int i = 0; i < values.length; i++) {
            boxed[i] = values[i];
        }
        return boxed;
    }

    private record Batch(String generator, boolean string) {}

    private record Slot(Object entity, IdgenIdMember member) {}
}
