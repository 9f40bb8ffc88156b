package dev.idgen.test.quick;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a test class, or a test helper, that reaches an external service without going through
 * {@code dev.idgen.test.services} (e.g. from environment variables of its own): the fast inner loop
 * ({@link WithoutServicesFilter}) leaves out every test class that uses it.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.TYPE)
public @interface NeedsServices {

    /** @return what it needs, for the reader */
    String value();
}
