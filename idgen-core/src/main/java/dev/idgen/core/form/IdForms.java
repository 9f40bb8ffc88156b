package dev.idgen.core.form;

import dev.idgen.core.InvalidArgumentException;

/**
 * Every generator's {@link IdForm}, by name: the entry point for IDs as strings. A name without a generator of its own
 * gets the default generator's form.
 */
@FunctionalInterface
public interface IdForms {

    /**
     * @param name a sequence name: 1 to 64 characters of {@code [A-Za-z0-9._:-]}, the first a letter or digit
     * @return the form of the generator that serves the name
     * @throws InvalidArgumentException (argument {@code name}) when the name breaks its rule
     */
    IdForm form(String name);

    /**
     * The form of one generator, to read its IDs and name its form without issuing any: an implementation that would
     * start something for {@link #form(String)} (a sequence, buffers) may return a form that only decodes, whose
     * {@code next} methods refuse. Unless overridden, {@link #form(String)}.
     *
     * @param generator a generator's name
     * @return its form
     * @throws InvalidArgumentException (argument {@code name}) when the name breaks its rule
     */
    default IdForm decoder(String generator) {
        return form(generator);
    }
}
