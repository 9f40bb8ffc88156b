package dev.idgen.etcd;

import dev.idgen.core.InvalidArgumentException;
import io.etcd.jetcd.ByteSequence;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * How the etcd stores wait for jetcd: every operation gets one deadline ({@code timeout} from its start), and each
 * future it waits for is awaited only until that deadline, then cancelled. Cancelling the future jetcd returns stops
 * jetcd's own retries (its Failsafe policy is cancelled with the future), so nothing retries past the deadline. The
 * gRPC call itself may stay queued in the channel (jetcd's default {@code waitForReady} holds a call until a member is
 * reachable); every write the stores send is a compare-and-set, so such a call, if it arrives later, either fails its
 * comparison or takes a block nobody uses (a gap), never a repeat.
 */
final class EtcdCalls {

    /** The longest namespace, before a missing trailing '/' is added. */
    static final int MAX_NAMESPACE_LENGTH = 128;

    private final String endpoints;
    private final Duration timeout;

    EtcdCalls(String endpoints, Duration timeout) {
        this.endpoints = endpoints;
        this.timeout = timeout;
    }

    Duration timeout() {
        return timeout;
    }

    String endpoints() {
        return endpoints;
    }

    /** @return the deadline of an operation starting now, in {@link System#nanoTime()} */
    long deadline() {
        return System.nanoTime() + timeout.toNanos();
    }

    static boolean passed(long deadline) {
        return System.nanoTime() - deadline >= 0;
    }

    /**
     * Waits for {@code future} until {@code deadline}.
     *
     * @throws EtcdUnavailableException when it failed or did not complete in time (then it is cancelled)
     */
    <T> T await(CompletableFuture<T> future, long deadline, String what) {
        try {
            return future.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            future.cancel(true);
            throw new EtcdUnavailableException(
                    "etcd at " + endpoints + " did not answer within " + timeout.toMillis() + " ms to " + what, e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            throw new EtcdUnavailableException(
                    "etcd at " + endpoints + " failed to " + what + ": " + cause.getMessage(), cause);
        } catch (CancellationException e) {
            throw new EtcdUnavailableException(
                    "The call to etcd at " + endpoints + " to " + what + " was cancelled", e);
        } catch (InterruptedException e) {
            future.cancel(true);
            Thread.currentThread().interrupt();
            throw new EtcdUnavailableException("Interrupted while waiting for etcd at " + endpoints + " to " + what, e);
        }
    }

    EtcdUnavailableException timedOut(String what) {
        return new EtcdUnavailableException("etcd at " + endpoints + " could not " + what + " within "
                + timeout.toMillis() + " ms (other instances kept changing the same keys)");
    }

    static ByteSequence bytes(String value) {
        return ByteSequence.from(value, StandardCharsets.UTF_8);
    }

    static String string(ByteSequence value) {
        return value.toString(StandardCharsets.UTF_8);
    }

    /**
     * @return {@code namespace}, with a '/' appended when it does not end with one
     * @throws InvalidArgumentException naming {@code namespace} when it is empty, longer than 128 characters, or holds
     *         whitespace or control characters
     */
    static String checkNamespace(String namespace) {
        if (namespace == null
                || namespace.isEmpty()
                || namespace.length() > MAX_NAMESPACE_LENGTH
                || namespace.codePoints().anyMatch(c -> Character.isWhitespace(c) || Character.isISOControl(c))) {
            throw new InvalidArgumentException(
                    "namespace",
                    namespace,
                    "namespace must be 1 to " + MAX_NAMESPACE_LENGTH
                            + " characters without whitespace or control characters (conventionally ending with"
                            + " '/'), but was " + (namespace == null ? "null" : "'" + namespace + "'"));
        }
        return namespace.endsWith("/") ? namespace : namespace + "/";
    }

    /**
     * @throws InvalidArgumentException naming {@code timeout} unless it is positive
     */
    static Duration checkTimeout(Duration timeout) {
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new InvalidArgumentException("timeout", timeout, "timeout must be positive, but was " + timeout);
        }
        return timeout;
    }

    /** @return {@code duration} in whole seconds, rounded up */
    static long ceilSeconds(Duration duration) {
        long seconds = duration.getSeconds();
        return duration.getNano() > 0 ? seconds + 1 : seconds;
    }
}
