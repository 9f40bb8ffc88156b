package dev.idgen.core;

/**
 * The clock moved backwards further than the configured tolerance, so a time-based ID could repeat one already
 * issued. Generation resumes by itself once the clock has caught up again.
 */
public class ClockBackwardsException extends IdGenerationException {

    private static final long serialVersionUID = 1L;

    private final long behindMillis;

    public ClockBackwardsException(String message, long behindMillis) {
        super(message);
        this.behindMillis = behindMillis;
    }

    /**
     * @return how many milliseconds the clock was behind the last timestamp in use
     */
    public long behindMillis() {
        return behindMillis;
    }
}
