package dev.idgen.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.hibernate.annotations.IdGeneratorType;

/**
 * Marks a field (or a getter) as an ID that idgen issues from the named generator ({@code ids.nextId(value)}).
 *
 * <p>Each integration that is on the classpath reads it: entity IDs that are still unset are filled in before they
 * are inserted (JPA/Hibernate, Spring Data JDBC, MyBatis), and JSON writes the ID as a string and reads it from a
 * string or a number (Jackson), because JavaScript's numbers cannot hold every 64-bit long. A {@code long} or
 * {@code Long} field takes the generator's 64-bit ID; a {@code String} field takes its canonical string form
 * ({@code IdForms.form(value).next()}).
 *
 * <p>For Hibernate it is an {@link IdGeneratorType} whose generator is {@link IdgenIdGenerator}: put it beside
 * {@code @Id} instead of {@code @GeneratedValue}. Hibernate is an optional dependency: without it on the classpath the
 * JVM drops the meta-annotation when it reads this one, and the other integrations work as before.
 */
@Documented
@IdGeneratorType(IdgenIdGenerator.class)
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.METHOD})
public @interface IdgenId {

    /**
     * @return the generator (sequence) name, as in {@code IdService.nextId(name)}; a generator configured under
     *         {@code idgen.generators.<name>} or any name of the default generator
     */
    String value();
}
