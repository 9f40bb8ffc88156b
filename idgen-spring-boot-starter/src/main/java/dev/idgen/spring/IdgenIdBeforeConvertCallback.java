package dev.idgen.spring;

import java.util.List;
import java.util.Objects;
import org.springframework.core.Ordered;
import org.springframework.data.mapping.PersistentPropertyAccessor;
import org.springframework.data.relational.core.mapping.RelationalMappingContext;
import org.springframework.data.relational.core.mapping.RelationalPersistentEntity;
import org.springframework.data.relational.core.mapping.RelationalPersistentProperty;
import org.springframework.data.relational.core.mapping.event.BeforeConvertCallback;

/**
 * Spring Data JDBC's hook for {@link IdgenId}: fills in an aggregate's unset IDs ({@code null}, or 0 for a primitive
 * {@code long}) before it is converted to rows; an ID that is already set is kept. Spring Data decides between insert
 * and update before this callback runs, so an unset ID still means insert; to insert an aggregate whose ID you set
 * yourself, use {@code JdbcAggregateTemplate.insert}.
 *
 * <p>It writes through Spring Data's property accessor where the member is a mapped property, so immutable aggregates
 * (records, {@code withId} methods) get a copy with the ID, as with Spring Data's own ID generation.
 */
public final class IdgenIdBeforeConvertCallback implements BeforeConvertCallback<Object>, Ordered {

    /**
     * Before other {@code BeforeConvertCallback}s, which may want to see the ID: {@code Ordered.HIGHEST_PRECEDENCE + 100}.
     */
    public static final int ORDER = Ordered.HIGHEST_PRECEDENCE + 100;

    private final IdgenEntityIds ids;

    private final RelationalMappingContext mappingContext;

    /**
     * @param ids fills in the IDs
     * @param mappingContext Spring Data's mapping of the aggregates
     */
    public IdgenIdBeforeConvertCallback(IdgenEntityIds ids, RelationalMappingContext mappingContext) {
        this.ids = Objects.requireNonNull(ids, "ids");
        this.mappingContext = Objects.requireNonNull(mappingContext, "mappingContext");
    }

    @Override
    public Object onBeforeConvert(Object aggregate) {
        List<IdgenIdMember> members = IdgenIdMember.of(aggregate.getClass());
        if (members.isEmpty()) {
            return aggregate;
        }
        RelationalPersistentEntity<?> entity = mappingContext.getPersistentEntity(aggregate.getClass());
        if (entity == null) {
            return ids.fill(aggregate);
        }
        @SuppressWarnings("unchecked")
        PersistentPropertyAccessor<Object> accessor =
                ((RelationalPersistentEntity<Object>) entity).getPropertyAccessor(aggregate);
        for (IdgenIdMember member : members) {
            RelationalPersistentProperty property = entity.getPersistentProperty(member.property());
            Object bean = accessor.getBean();
            if (property == null) {
                if (member.isUnset(bean)) {
                    member.set(bean, ids.next(member.generator(), member.kind()));
                }
            } else if (IdgenIdMember.isUnset(accessor.getProperty(property), member.kind())) {
                accessor.setProperty(property, ids.next(member.generator(), member.kind()));
            }
        }
        return accessor.getBean();
    }

    @Override
    public int getOrder() {
        return ORDER;
    }
}
