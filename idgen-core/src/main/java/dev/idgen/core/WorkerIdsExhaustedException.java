package dev.idgen.core;

/**
 * Every worker id the layout can hold is leased by a live instance (or waits out its reuse delay), so no generator
 * could be started.
 */
public class WorkerIdsExhaustedException extends IdGenerationException {

    private static final long serialVersionUID = 1L;

    public WorkerIdsExhaustedException(String message) {
        super(message);
    }
}
