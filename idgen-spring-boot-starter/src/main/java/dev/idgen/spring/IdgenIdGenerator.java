package dev.idgen.spring;

import dev.idgen.core.IdService;
import dev.idgen.core.form.IdForms;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.util.EnumSet;
import org.hibernate.MappingException;
import org.hibernate.engine.spi.SharedSessionContractImplementor;
import org.hibernate.generator.AnnotationBasedGenerator;
import org.hibernate.generator.BeforeExecutionGenerator;
import org.hibernate.generator.EventType;
import org.hibernate.generator.EventTypeSets;
import org.hibernate.generator.GeneratorCreationContext;
import org.hibernate.property.access.spi.Getter;
import org.hibernate.resource.beans.container.spi.BeanContainer;
import org.hibernate.resource.beans.container.spi.ContainedBean;
import org.hibernate.resource.beans.spi.BeanInstanceProducer;
import org.hibernate.resource.beans.spi.ManagedBeanRegistry;

/**
 * Hibernate's generator for {@link IdgenId} identifiers (the annotation is meta-annotated with
 * {@code @IdGeneratorType(IdgenIdGenerator.class)}): the ID is taken in Java before the insert, so Hibernate batches
 * inserts ({@code hibernate.jdbc.batch_size}) as with any assigned identifier. An entity persisted with its ID already
 * set keeps it ({@link #allowAssignedIdentifiers()}).
 *
 * <p>It reaches the application's {@link IdService} and {@link IdForms} through Hibernate's bean container, which
 * Spring Boot sets to Spring's {@code SpringBeanContainer}: the generator asks it for the existing beans, so every
 * {@code EntityManagerFactory} draws from the {@code IdService} of its own application context (no static holder, which
 * would mix up several contexts in one JVM), whether or not Hibernate builds generators themselves as beans
 * ({@code hibernate.cdi.extensions}). Hibernate creates the generator while the {@code EntityManagerFactory} starts,
 * so a member of an unsupported type or a missing bean container fails start-up.
 */
public final class IdgenIdGenerator implements BeforeExecutionGenerator, AnnotationBasedGenerator<IdgenId> {

    private static final long serialVersionUID = 1L;

    private static final BeanContainer.LifecycleOptions EXISTING_BEAN = new BeanContainer.LifecycleOptions() {

        @Override
        public boolean canUseCachedReferences() {
            return true;
        }

        @Override
        public boolean useJpaCompliantCreation() {
            // false: look the singleton up (getBean), never create a second instance of it.
            return false;
        }
    };

    /** The system property Spring sets while it processes an application ahead of time. */
    private static final String AOT_PROCESSING = "spring.aot.processing";

    private String generator;

    private IdgenIdMember.Kind kind;

    private transient IdgenEntityIds ids;

    /**
     * For Hibernate, which creates the generator and then calls {@link #initialize(IdgenId, GeneratorCreationContext)}.
     */
    public IdgenIdGenerator() {}

    @Override
    public void initialize(IdgenId annotation, GeneratorCreationContext context) {
        Getter getter =
                context.getProperty().getGetter(context.getPersistentClass().getMappedClass());
        Member member = getter.getMember();
        String where = member == null
                ? context.getPersistentClass().getClassName() + "."
                        + context.getProperty().getName()
                : member.getDeclaringClass().getName() + "." + member.getName()
                        + (member instanceof Method ? "()" : "");
        // The member's own type: Hibernate's type of a primitive long is Long, but 0 means unset only for long.
        Class<?> type = getter.getReturnTypeClass();
        try {
            kind = IdgenIdMember.kind(type, where);
            generator = IdgenIdMember.generator(annotation.value(), where);
        } catch (IllegalStateException e) {
            throw new MappingException(e.getMessage(), e);
        }
        BeanContainer container = context.getServiceRegistry()
                .requireService(ManagedBeanRegistry.class)
                .getBeanContainer();
        if (container == null) {
            if (Boolean.getBoolean(AOT_PROCESSING)) {
                // Spring Data JPA's AOT repositories build a SessionFactory of the metamodel alone while the
                // application is processed ahead of time ("AotMetamodel"), with no bean container; it persists
                // nothing, so the generator needs no IdService there. The processed application's own
                // EntityManagerFactory has Spring's container and is checked as always.
                return;
            }
            throw new MappingException("@IdgenId on " + where + " needs idgen's IdService from Hibernate's bean"
                    + " container, but none is configured. Spring Boot's JPA auto-configuration sets one; an"
                    + " EntityManagerFactory built by hand needs hibernate.resource.beans.container set to"
                    + " new org.springframework.orm.jpa.hibernate.SpringBeanContainer(beanFactory)");
        }
        ids = new IdgenEntityIds(bean(container, IdService.class, where), bean(container, IdForms.class, where));
    }

    @Override
    public Object generate(
            SharedSessionContractImplementor session, Object owner, Object currentValue, EventType eventType) {
        if (!IdgenIdMember.isUnset(currentValue, kind)) {
            return currentValue;
        }
        if (ids == null) {
            throw new IllegalStateException("idgen's Hibernate generator for " + generator + " was made while the"
                    + " application was processed ahead of time, with no IdService: it issues no IDs");
        }
        return ids.next(generator, kind);
    }

    /**
     * @return {@code true}: Hibernate passes the entity's current ID to {@link #generate}, which keeps an ID that is
     *         already set, and {@code persist} accepts such an entity as new
     */
    @Override
    public boolean allowAssignedIdentifiers() {
        return true;
    }

    @Override
    public EnumSet<EventType> getEventTypes() {
        return EventTypeSets.INSERT_ONLY;
    }

    private static <T> T bean(BeanContainer container, Class<T> type, String where) {
        ContainedBean<T> bean = container.getBean(type, EXISTING_BEAN, new BeanInstanceProducer() {

            @Override
            public <B> B produceBeanInstance(Class<B> beanType) {
                throw new MappingException("@IdgenId on " + where + " needs a " + beanType.getName() + " bean, and"
                        + " Hibernate's bean container (" + container.getClass().getName() + ") has none: is idgen"
                        + " disabled (idgen.enabled=false)?");
            }

            @Override
            public <B> B produceBeanInstance(String name, Class<B> beanType) {
                return produceBeanInstance(beanType);
            }
        });
        return bean.getBeanInstance();
    }
}
