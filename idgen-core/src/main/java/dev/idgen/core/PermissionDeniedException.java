package dev.idgen.core;

/**
 * The store refused this caller the name: it may not use it (an idgen server whose client token does not allow the
 * name answers 403). A configuration error, not an outage: asking again, or asking another server, gets the same
 * answer until the configuration changes. The segment engine hands it to the callers of the name at once, does not
 * retry it in the background, and counts it neither as a failed load nor as a name refusing for want of a store.
 */
public class PermissionDeniedException extends IdGenerationException {

    private static final long serialVersionUID = 1L;

    private final String name;

    /**
     * @param name the name refused
     * @param message what was refused, by whom and to whom, and what to change
     */
    public PermissionDeniedException(String name, String message) {
        super(message);
        this.name = name;
    }

    /**
     * @param name the name refused
     * @param message what was refused, by whom and to whom, and what to change
     * @param cause the refusal as the store reported it
     */
    public PermissionDeniedException(String name, String message, Throwable cause) {
        super(message, cause);
        this.name = name;
    }

    /** @return the name refused */
    public String name() {
        return name;
    }
}
