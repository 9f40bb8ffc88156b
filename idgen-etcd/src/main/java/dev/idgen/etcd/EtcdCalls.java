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
 * future it waits for is awaited only until that deadline, then cancelled and reported as
 * {@link EtcdUnavailableException}. So no caller waits past its deadline, whatever jetcd does meanwhile.
 *
 * <p>What jetcd may still do after the deadline: cancelling the future it returned does not reach the call behind it
 * (the future is a stage derived from jetcd's retry policy). A call that waits for a reachable member (jetcd's default
 * {@code waitForReady}) stays queued in the channel until one answers or the client is closed; a call that failed as
 * unavailable is retried by jetcd's policy ({@code retryMaxAttempts}, 2 by default, with a backoff from 500 ms;
 * {@code retryMaxDuration} bounds it) only when it is safe to repeat: reads and lease grants, revocations and
 * queries, never the transactions these stores write with (jetcd retries a transaction only on an expired auth
 * token). Whatever arrives late is harmless: every write is a compare-and-set, which fails when the keys moved since
 * the read it was built on, or else takes a block or a lease nobody uses (a gap, never a repeat), and a lease granted
 * late holds no key and lapses after its TTL.
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
                    "etcd at " + endpoints + " failed to " + what + ": " + describe(cause), cause);
        } catch (CancellationException e) {
            throw new EtcdUnavailableException(
                    "The call to etcd at " + endpoints + " to " + what + " was cancelled", e);
        } catch (InterruptedException e) {
            future.cancel(true);
            Thread.currentThread().interrupt();
            throw new EtcdUnavailableException("Interrupted while waiting for etcd at " + endpoints + " to " + what, e);
        }
    }

    /**
     * @return the first line of {@code failure}'s message, followed by those of its causes that add to it: gRPC
     *         reports a rejected password as a bare {@code UNAUTHENTICATED} and a refused certificate as
     *         {@code UNAVAILABLE: io exception}, with what etcd or the TLS handshake said only in the causes
     */
    static String describe(Throwable failure) {
        StringBuilder description = new StringBuilder(String.valueOf(firstLine(failure.getMessage())));
        Throwable cause = failure.getCause();
        for (int depth = 0; cause != null && depth < 5; depth++) {
            String message = firstLine(cause.getMessage());
            if (message != null && !message.isBlank() && description.indexOf(message) < 0) {
                description.append(" (").append(message).append(')');
            }
            cause = cause.getCause() == cause ? null : cause.getCause();
        }
        return description.toString();
    }

    /** @return the first line of {@code message} (gRPC adds the channel's pipeline on a second one), or null */
    private static String firstLine(String message) {
        if (message == null) {
            return null;
        }
        int end = message.indexOf('\n');
        return end < 0 ? message : message.substring(0, end).strip();
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
