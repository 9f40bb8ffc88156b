package dev.idgen.server.access;

/**
 * Where rate limits read the time: {@link System#nanoTime()} unless a test puts its own bean in, so that a test can
 * use up a burst and refill it without waiting.
 */
@FunctionalInterface
public interface NanoClock {

    /** @return a monotonic time in nanoseconds, comparable only with other readings of the same clock */
    long nanos();

    /** @return the JVM's monotonic clock, which a wall-clock step cannot move */
    static NanoClock system() {
        return System::nanoTime;
    }
}
