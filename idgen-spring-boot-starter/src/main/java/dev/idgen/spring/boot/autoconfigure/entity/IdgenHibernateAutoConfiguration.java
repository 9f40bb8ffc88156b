package dev.idgen.spring.boot.autoconfigure.entity;

import dev.idgen.core.IdService;
import dev.idgen.core.form.IdForms;
import dev.idgen.spring.IdgenId;
import dev.idgen.spring.IdgenIdGenerator;
import dev.idgen.spring.boot.autoconfigure.IdgenAutoConfiguration;
import org.hibernate.annotations.IdGeneratorType;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration;
import org.springframework.boot.jpa.autoconfigure.EntityManagerFactoryDependsOnPostProcessor;
import org.springframework.context.annotation.Bean;
import org.springframework.orm.jpa.hibernate.SpringBeanContainer;

/**
 * Entity IDs with Hibernate: an {@link IdgenId} on an {@code @Id} is Hibernate's own {@code @IdGeneratorType}, so
 * Hibernate itself creates an {@link IdgenIdGenerator} for it, which takes idgen's beans from the
 * {@link SpringBeanContainer} Spring Boot gives Hibernate. What is left here: every {@code EntityManagerFactory}
 * depends on the {@link IdService} and {@link IdForms}, so they start before Hibernate asks for them and close after
 * the last insert.
 */
@AutoConfiguration(after = IdgenAutoConfiguration.class, before = HibernateJpaAutoConfiguration.class)
@ConditionalOnClass({IdGeneratorType.class, SpringBeanContainer.class, EntityManagerFactoryDependsOnPostProcessor.class
})
public final class IdgenHibernateAutoConfiguration {

    @Bean
    static EntityManagerFactoryDependsOnPostProcessor idgenEntityManagerFactoryDependsOnPostProcessor() {
        return new EntityManagerFactoryDependsOnPostProcessor(IdService.class, IdForms.class);
    }
}
