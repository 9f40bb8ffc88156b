package dev.idgen.core;

/**
 * An argument or a setting broke its rule. {@link #argument()} names it, so that a caller can map it back to where
 * the value came from (a request parameter, a configuration property).
 */
public class InvalidArgumentException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final String argument;

    private final transient Object value;

    /**
     * @param argument the name of the argument, in camelCase, for example {@code count} or {@code sequenceBits}
     * @param value the rejected value, may be {@code null}
     * @param message a message that names the argument and the rule
     */
    public InvalidArgumentException(String argument, Object value, String message) {
        super(message);
        this.argument = argument;
        this.value = value;
    }

    /**
     * @return the argument's name in camelCase
     */
    public String argument() {
        return argument;
    }

    /**
     * @return the rejected value, may be {@code null}
     */
    public Object value() {
        return value;
    }
}
