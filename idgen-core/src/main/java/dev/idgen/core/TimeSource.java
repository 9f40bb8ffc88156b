package dev.idgen.core;

/**
 * Where idgen reads the wall-clock time. Everything time-based takes one, so that tests can move time forwards and
 * backwards deterministically (see {@link ManualTimeSource}).
 */
@FunctionalInterface
public interface TimeSource {

    /**
     * @return the current time in milliseconds since 1970-01-01T00:00:00Z
     */
    long currentTimeMillis();

    /**
     * A monotonic reading in nanoseconds, for measuring how much time passed (lease deadlines, timeouts). Unlike
     * {@link #currentTimeMillis()} it never moves backwards; only differences between two readings mean anything.
     * The default is {@link System#nanoTime()}.
     *
     * @return nanoseconds from an arbitrary origin
     */
    default long nanoTime() {
        return System.nanoTime();
    }

    /**
     * @return the system clock, {@link System#currentTimeMillis()}
     */
    static TimeSource system() {
        return SystemTimeSource.INSTANCE;
    }
}

enum SystemTimeSource implements TimeSource {
    INSTANCE;

    @Override
    public long currentTimeMillis() {
        return System.currentTimeMillis();
    }

    @Override
    public String toString() {
        return "TimeSource.system()";
    }
}
