package dev.idgen.spring.boot.autoconfigure.jdbc;

import dev.idgen.spring.boot.autoconfigure.IdgenGenerators;

/**
 * What a missing-table failure report suggests setting. The key that creates every idgen table at once is the
 * top-level {@code idgen.jdbc.initialize-schema=always}, which the generators of their own inherit: a report that
 * suggested only the failing generator's key ({@code idgen.generators.invoice.jdbc.initialize-schema}) had the user
 * fix one table and fail again on the next generator's.
 */
public final class IdgenSchemaAdvice {

    public static final String EVERY_TABLE = IdgenGenerators.PREFIX + ".jdbc.initialize-schema";

    private IdgenSchemaAdvice() {}

    /**
     * @return for example {@code set idgen.jdbc.initialize-schema=always to let idgen create its tables at start-up
     *         (every generator inherits it unless it sets jdbc.initialize-schema itself), or
     *         idgen.generators.invoice.jdbc.initialize-schema=always for this generator's table only}
     */
    public static String initializeSchema(IdgenGenerators.Definition definition) {
        String advice = "set " + EVERY_TABLE + "=always to let idgen create its tables at start-up (every generator"
                + " inherits it unless it sets jdbc.initialize-schema itself)";
        if (definition.isDefault()) {
            return advice;
        }
        return advice + ", or " + definition.property("jdbc.initialize-schema") + "=always for this generator's"
                + " table only";
    }
}
