package dev.idgen.spring.boot.autoconfigure;

import dev.idgen.core.IdSequence;
import dev.idgen.core.IdService;
import dev.idgen.core.form.IdForm;
import dev.idgen.core.form.IdForms;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.config.AutowireCapableBeanFactory;
import org.springframework.beans.factory.support.AutowireCandidateQualifier;
import org.springframework.beans.factory.support.RootBeanDefinition;

/**
 * The beans each named generator adds under its name as a qualifier: its {@link IdSequence}
 * ({@code @Qualifier("invoice") IdSequence}) and its {@link IdForm}.
 *
 * <p>Each definition names a static factory method of this class and the generator's name as its argument (the
 * {@link IdService} or {@link IdForms} is autowired), not a supplier lambda: Spring's ahead-of-time processing writes
 * such a definition into code, while it rejects an instance supplier.
 */
public final class IdgenQualifiedBeans {

    private IdgenQualifiedBeans() {}

    /**
     * @return the definition of the named generator's {@link IdSequence} bean
     */
    public static RootBeanDefinition sequenceDefinition(String name) {
        return definition(IdSequence.class, "sequence", name);
    }

    /**
     * @return the definition of the named generator's {@link IdForm} bean
     */
    public static RootBeanDefinition formDefinition(String name) {
        return definition(IdForm.class, "form", name);
    }

    /**
     * The factory method of {@link #sequenceDefinition}'s bean.
     *
     * @return the named generator's sequence
     */
    public static IdSequence sequence(IdService ids, String name) {
        return ids.sequence(name);
    }

    /**
     * The factory method of {@link #formDefinition}'s bean.
     *
     * @return the named generator's form
     */
    public static IdForm form(IdForms forms, String name) {
        return forms.form(name);
    }

    private static RootBeanDefinition definition(Class<?> type, String factoryMethod, String name) {
        RootBeanDefinition definition = new RootBeanDefinition(IdgenQualifiedBeans.class);
        definition.setFactoryMethodName(factoryMethod);
        definition.setTargetType(type);
        // The first argument (the service) by type, as for a @Bean method; the second is the name.
        definition.setAutowireMode(AutowireCapableBeanFactory.AUTOWIRE_CONSTRUCTOR);
        definition.getConstructorArgumentValues().addIndexedArgumentValue(1, name);
        definition.addQualifier(new AutowireCandidateQualifier(Qualifier.class, name));
        return definition;
    }
}
