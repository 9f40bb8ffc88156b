package dev.idgen.core;

/**
 * The ID layout has no room left: its timestamp bits are used up, so any further ID would overflow into the sign
 * bit or wrap around. Choose a later epoch or more timestamp bits. For periodic IDs
 * ({@link dev.idgen.core.period.PeriodicIdService}): the period has used up the numbers its {@code digits} hold, so a
 * further number would spill into another period's IDs; it has IDs again once the period ends.
 */
public class LayoutExhaustedException extends IdGenerationException {

    private static final long serialVersionUID = 1L;

    public LayoutExhaustedException(String message) {
        super(message);
    }
}
