package dev.idgen.spring;

import dev.idgen.core.form.IdForms;
import dev.idgen.spring.reactive.ReactiveIdService;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import org.reactivestreams.Publisher;
import org.springframework.core.Ordered;
import org.springframework.data.mapping.PersistentPropertyAccessor;
import org.springframework.data.r2dbc.mapping.event.BeforeConvertCallback;
import org.springframework.data.relational.core.mapping.RelationalMappingContext;
import org.springframework.data.relational.core.mapping.RelationalPersistentEntity;
import org.springframework.data.relational.core.mapping.RelationalPersistentProperty;
import org.springframework.data.relational.core.sql.SqlIdentifier;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Spring Data R2DBC's hook for {@link IdgenId}: fills in an entity's unset IDs ({@code null}, or 0 for a primitive
 * {@code long}) before it is converted to a row, without blocking the thread it runs on; an ID that is already set is
 * kept. As with Spring Data JDBC, Spring Data decides between insert and update before this callback runs, so an
 * unset ID still means insert; to insert an entity whose ID you set yourself, use {@code R2dbcEntityTemplate.insert}.
 *
 * <p>A {@code long} or {@code Long} member takes its ID from {@link ReactiveIdService#nextId(String)}: from memory on
 * the subscribing thread when the generator has one ready (Snowflake, a segment's current block), otherwise where the
 * generator's asynchronous call completes (a Redis reply on its event loop, or a bounded {@code idgen-blocking}
 * thread for a database round trip). A {@code String} member takes the generator's string form, whose
 * {@code IdForm.next()} may wait on a store, so it always runs on {@code blocking} (the bounded executor of
 * {@code idgen.reactive.*}); a full queue fails the save at once instead of queueing without limit.
 *
 * <p>It writes through Spring Data's property accessor where the member is a mapped property, so immutable entities
 * (records, {@code withId} methods) get a copy with the ID, as with Spring Data's own ID generation.
 */
public final class IdgenIdR2dbcBeforeConvertCallback implements BeforeConvertCallback<Object>, Ordered {

    /**
     * Before other {@code BeforeConvertCallback}s, which may want to see the ID: {@code Ordered.HIGHEST_PRECEDENCE + 100}.
     */
    public static final int ORDER = Ordered.HIGHEST_PRECEDENCE + 100;

    private final ReactiveIdService ids;

    private final IdForms forms;

    private final Executor blocking;

    private final RelationalMappingContext mappingContext;

    /**
     * @param ids issues the 64-bit IDs without blocking the caller
     * @param forms issues the string IDs
     * @param blocking where a string ID is taken, as its form may wait on a store; a bounded executor
     * @param mappingContext Spring Data's mapping of the entities
     */
    public IdgenIdR2dbcBeforeConvertCallback(
            ReactiveIdService ids, IdForms forms, Executor blocking, RelationalMappingContext mappingContext) {
        this.ids = Objects.requireNonNull(ids, "ids");
        this.forms = Objects.requireNonNull(forms, "forms");
        this.blocking = Objects.requireNonNull(blocking, "blocking");
        this.mappingContext = Objects.requireNonNull(mappingContext, "mappingContext");
    }

    @Override
    public Publisher<Object> onBeforeConvert(Object entity, SqlIdentifier table) {
        List<IdgenIdMember> members;
        try {
            members = IdgenIdMember.of(entity.getClass());
        } catch (RuntimeException e) {
            // A member idgen cannot fill (its type, a final field): the save fails with the message naming it.
            return Mono.error(e);
        }
        if (members.isEmpty()) {
            return Mono.just(entity);
        }
        RelationalPersistentEntity<?> persistent = mappingContext.getPersistentEntity(entity.getClass());
        @SuppressWarnings("unchecked")
        PersistentPropertyAccessor<Object> accessor = persistent == null
                ? null
                : ((RelationalPersistentEntity<Object>) persistent).getPropertyAccessor(entity);
        // One member after another: an immutable entity's accessor swaps the bean on each write.
        return Flux.fromIterable(members)
                .concatMap(member -> fill(member, persistent, accessor, entity))
                .then(Mono.fromSupplier(() -> accessor == null ? entity : accessor.getBean()));
    }

    private Mono<Object> fill(
            IdgenIdMember member,
            RelationalPersistentEntity<?> persistent,
            PersistentPropertyAccessor<Object> accessor,
            Object entity) {
        RelationalPersistentProperty property =
                persistent == null ? null : persistent.getPersistentProperty(member.property());
        if (property == null) {
            Object bean = accessor == null ? entity : accessor.getBean();
            if (!member.isUnset(bean)) {
                return Mono.empty();
            }
            return next(member).doOnNext(value -> member.set(bean, value));
        }
        if (!IdgenIdMember.isUnset(accessor.getProperty(property), member.kind())) {
            return Mono.empty();
        }
        return next(member).doOnNext(value -> accessor.setProperty(property, value));
    }

    private Mono<Object> next(IdgenIdMember member) {
        if (member.kind() == IdgenIdMember.Kind.STRING) {
            // defer: each subscription takes its own ID, and a rejected hand-off arrives as onError.
            return Mono.defer(() -> Mono.fromFuture(CompletableFuture.supplyAsync(
                    () -> forms.form(member.generator()).next(), blocking)));
        }
        return ids.nextId(member.generator()).cast(Object.class);
    }

    @Override
    public int getOrder() {
        return ORDER;
    }
}
