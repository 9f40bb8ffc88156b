package dev.idgen.core;

/**
 * The base of every failure to issue an ID. idgen throws rather than risk handing out an ID twice.
 */
public class IdGenerationException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public IdGenerationException(String message) {
        super(message);
    }

    public IdGenerationException(String message, Throwable cause) {
        super(message, cause);
    }
}
