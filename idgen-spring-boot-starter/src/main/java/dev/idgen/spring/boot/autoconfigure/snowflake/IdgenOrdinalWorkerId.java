package dev.idgen.spring.boot.autoconfigure.snowflake;

import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.snowflake.OrdinalWorkerId;
import dev.idgen.core.snowflake.SnowflakeLayout;
import dev.idgen.spring.boot.autoconfigure.core.IdgenGenerators;
import dev.idgen.spring.boot.autoconfigure.diagnostics.IdgenStartupException;
import dev.idgen.spring.boot.autoconfigure.diagnostics.InvalidIdgenProperty;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

/**
 * {@code idgen.snowflake.worker-id-assigner=ordinal}: the worker id from the instance's ordinal, read from the host
 * name ({@code idgen.snowflake.ordinal.pattern}) or an environment variable ({@code idgen.snowflake.ordinal.env}),
 * plus {@code idgen.snowflake.ordinal.offset}. Anything that yields no worker id of the layout fails start-up saying
 * what was read, from where, and the worker ids the layout has.
 */
final class IdgenOrdinalWorkerId {

    private IdgenOrdinalWorkerId() {}

    /**
     * @param environment looks up {@code HOSTNAME} and the configured variable
     * @return the generator's worker id
     * @throws IdgenStartupException when no ordinal can be read, or it is outside the layout's worker ids
     */
    static long workerId(
            IdgenGenerators.Definition definition, SnowflakeLayout layout, UnaryOperator<String> environment) {
        SnowflakeProperties.Ordinal ordinal =
                definition.settings(SnowflakeProperties.SECTION).getOrdinal();
        String feature = SnowflakeStrategy.workerIdAssignerSetting(definition);
        String prefix = definition.property("snowflake.ordinal");
        String range = "0 to " + layout.maxWorkerId() + ", the worker ids of this layout ("
                + definition.property("snowflake.worker-bits") + "=" + layout.workerBits() + ")";
        long value;
        String source;
        String variable = ordinal.getEnv() == null ? "" : ordinal.getEnv().strip();
        if (!variable.isEmpty()) {
            String raw = environment.apply(variable);
            String fix = "Set " + variable + " to this instance's ordinal, unique among the instances running at once;"
                    + " the ordinal plus " + prefix + ".offset must be from " + range + ". Or remove " + prefix
                    + ".env to read the ordinal from the host name";
            if (raw == null || raw.isBlank()) {
                throw new IdgenStartupException(
                        feature + " reads the ordinal from the environment variable " + variable + " (" + prefix
                                + ".env), but it is not set",
                        fix);
            }
            try {
                value = OrdinalWorkerId.fromValue(raw);
            } catch (InvalidArgumentException e) {
                throw new IdgenStartupException(
                        feature + " reads the ordinal from the environment variable " + variable + " (" + prefix
                                + ".env), but it holds '" + raw + "', not a number from 0",
                        fix);
            }
            source = "the environment variable " + variable + " (" + prefix + ".env)";
        } else {
            Pattern pattern =
                    InvalidIdgenProperty.rethrowAsProperty(prefix, () -> OrdinalWorkerId.pattern(ordinal.getPattern()));
            String hostName;
            try {
                hostName = OrdinalWorkerId.hostName(environment);
            } catch (IllegalStateException e) {
                throw new IdgenStartupException(
                        feature + " takes the worker id from the host name, but " + e.getMessage(),
                        "Set the environment variable " + OrdinalWorkerId.HOSTNAME + ", or set " + prefix
                                + ".env to a variable that holds the ordinal",
                        e);
            }
            try {
                value = OrdinalWorkerId.fromHostName(hostName, pattern);
            } catch (InvalidArgumentException e) {
                throw new IdgenStartupException(
                        feature + " takes the worker id from the host name, but the host"
                                + " name '" + hostName + "' does not end in an ordinal that " + prefix + ".pattern '"
                                + pattern.pattern()
                                + "' finds (its one group must capture a number from 0); the worker id,"
                                + " the ordinal plus " + prefix + ".offset, must be from " + range,
                        "Run the application"
                                + " where the host name carries its ordinal (a StatefulSet pod: <name>-0, <name>-1,"
                                + " ...), set " + prefix + ".pattern to a regular expression whose one group captures"
                                + " the ordinal in the host name, or set " + prefix + ".env to an environment variable"
                                + " that holds it");
            }
            source = "the host name '" + hostName + "' (" + prefix + ".pattern '" + pattern.pattern() + "')";
        }
        long offset = ordinal.getOffset();
        try {
            return OrdinalWorkerId.workerId(value, offset, layout.maxWorkerId());
        } catch (InvalidArgumentException e) {
            throw new IdgenStartupException(
                    feature + " read the ordinal " + value + " from " + source
                            + (offset == 0 ? "" : " and adds " + prefix + ".offset=" + offset) + ": worker id "
                            + e.value()
                            + " is outside " + range,
                    "Run at most " + (layout.maxWorkerId() + 1) + " instances at once,"
                            + " give the layout more worker bits (" + definition.property("snowflake.worker-bits")
                            + "), or change " + prefix + ".offset");
        }
    }
}
