package dev.idgen.core;

/**
 * The generator's worker id lease ran out unrenewed (the lease store could not be reached, or the process was frozen
 * past the lease), so another instance may hold the worker id now: no ID was issued. Calls succeed again once the
 * lease is renewed.
 */
public class LeaseLostException extends IdGenerationException {

    private static final long serialVersionUID = 1L;

    public LeaseLostException(String message) {
        super(message);
    }
}
