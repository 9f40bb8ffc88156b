package dev.idgen.core.snowflake;

import dev.idgen.core.InvalidArgumentException;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Objects;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * A worker id taken from the instance's ordinal, with no store: the number a Kubernetes StatefulSet gives each of its
 * pods ({@code orders-0}, {@code orders-1}, ...; the pod's host name), or a number an environment variable holds. The
 * platform keeps ordinals unique among the instances running at once, so no lease is needed; the ordinal plus an
 * optional offset must fit the layout's worker ids.
 *
 * <pre>{@code
 * long ordinal = OrdinalWorkerId.fromHostName(OrdinalWorkerId.hostName(System::getenv),
 *         OrdinalWorkerId.pattern(OrdinalWorkerId.DEFAULT_PATTERN));
 * long workerId = OrdinalWorkerId.workerId(ordinal, 0, layout.maxWorkerId());
 * }</pre>
 */
public final class OrdinalWorkerId {

    /** A StatefulSet pod's host name: anything, a dash, and the ordinal at the end ({@code orders-7} is 7). */
    public static final String DEFAULT_PATTERN = ".*-(\\d+)$";

    /** The environment variable that holds the host name in containers and most shells. */
    public static final String HOSTNAME = "HOSTNAME";

    private OrdinalWorkerId() {}

    /**
     * @param regex a regular expression with exactly one capturing group, the ordinal
     * @return it compiled
     * @throws InvalidArgumentException naming {@code pattern} when it is not a regular expression or has not exactly
     *         one group
     */
    public static Pattern pattern(String regex) {
        if (regex == null || regex.isEmpty()) {
            throw new InvalidArgumentException(
                    "pattern",
                    regex,
                    "pattern must be a regular expression with one" + " group, the ordinal, for example "
                            + DEFAULT_PATTERN);
        }
        Pattern pattern;
        try {
            pattern = Pattern.compile(regex);
        } catch (PatternSyntaxException e) {
            throw new InvalidArgumentException(
                    "pattern",
                    regex,
                    "pattern must be a regular expression, but '" + regex + "' is not: " + e.getDescription());
        }
        int groups = pattern.matcher("").groupCount();
        if (groups != 1) {
            throw new InvalidArgumentException(
                    "pattern",
                    regex,
                    "pattern must have exactly one group, the ordinal," + " but '" + regex + "' has " + groups
                            + " (write other groups as (?:...))");
        }
        return pattern;
    }

    /**
     * @param hostName the host name, e.g. {@code orders-7}
     * @param pattern a pattern from {@link #pattern(String)}, found anywhere in the host name (anchor it to match the
     *        whole)
     * @return the ordinal its group captured, e.g. 7
     * @throws InvalidArgumentException naming {@code hostName} when the pattern is not found in it or its group is
     *         not a decimal number that fits a {@code long}
     */
    public static long fromHostName(String hostName, Pattern pattern) {
        Objects.requireNonNull(pattern, "pattern");
        Matcher matcher = hostName == null ? null : pattern.matcher(hostName);
        if (matcher == null || !matcher.find() || matcher.group(1) == null) {
            throw new InvalidArgumentException(
                    "hostName",
                    hostName,
                    "hostName '" + hostName + "' does not match the pattern '" + pattern.pattern() + "'");
        }
        String group = matcher.group(1);
        try {
            return number(group);
        } catch (NumberFormatException e) {
            throw new InvalidArgumentException(
                    "hostName",
                    hostName,
                    "hostName '" + hostName + "' matches the"
                            + " pattern '" + pattern.pattern() + "', but its group '" + group + "' is not an ordinal (a"
                            + " number from 0)");
        }
    }

    /**
     * @param value a variable's value, e.g. {@code 7}; spaces around it are ignored
     * @return the ordinal it holds
     * @throws InvalidArgumentException naming {@code value} when it is not a decimal number from 0 that fits a
     *         {@code long}
     */
    public static long fromValue(String value) {
        try {
            return number(value == null ? "" : value.strip());
        } catch (NumberFormatException e) {
            throw new InvalidArgumentException(
                    "value", value, "value must be an ordinal (a number from 0), but was '" + value + "'");
        }
    }

    /**
     * @param ordinal the instance's ordinal
     * @param offset added to it, may be negative (ordinals that count from 1 need -1)
     * @param maxWorkerId the layout's largest worker id, {@link SnowflakeLayout#maxWorkerId()}
     * @return {@code ordinal + offset}
     * @throws InvalidArgumentException naming {@code workerId} when the sum is not between 0 and {@code maxWorkerId}
     */
    public static long workerId(long ordinal, long offset, long maxWorkerId) {
        BigInteger sum = BigInteger.valueOf(ordinal).add(BigInteger.valueOf(offset));
        if (sum.signum() < 0 || sum.compareTo(BigInteger.valueOf(maxWorkerId)) > 0) {
            String from = offset == 0 ? "the ordinal " + ordinal : "the ordinal " + ordinal + " with offset " + offset;
            throw new InvalidArgumentException(
                    "workerId",
                    sum,
                    "workerId must be between 0 and " + maxWorkerId + " for this layout's worker bits, but " + from
                            + " makes it " + sum);
        }
        return sum.longValueExact();
    }

    /**
     * @param environment looks up an environment variable, e.g. {@code System::getenv}
     * @return the {@value #HOSTNAME} variable when set, otherwise the local host's name
     * @throws IllegalStateException when neither is known
     */
    public static String hostName(UnaryOperator<String> environment) {
        return hostName(environment, OrdinalWorkerId::localHostName);
    }

    static String hostName(UnaryOperator<String> environment, Supplier<String> localHost) {
        String fromEnvironment = environment.apply(HOSTNAME);
        if (fromEnvironment != null && !fromEnvironment.isBlank()) {
            return fromEnvironment.strip();
        }
        return localHost.get();
    }

    private static String localHostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            throw new IllegalStateException(
                    "The host name is not known: " + HOSTNAME + " is not set and the local"
                            + " host's name does not resolve (" + e.getMessage() + ")",
                    e);
        }
    }

    private static long number(String digits) {
        // Digits only: Long.parseLong would also take a sign.
        if (digits.isEmpty() || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new NumberFormatException(digits);
        }
        return Long.parseLong(digits);
    }
}
