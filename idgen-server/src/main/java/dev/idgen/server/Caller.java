package dev.idgen.server;

/**
 * Who a request comes from, once its token was checked: the client's id as configured under
 * {@code idgen.server.clients.<id>}, or {@value #ANONYMOUS} when the server lets requests in without a token.
 *
 * @param client the client's id, the tag of its meters
 * @param transport {@code http} or {@code grpc}, the tag of its meters
 * @param deadlineNanos the {@link System#nanoTime()} after which the caller no longer waits, or {@link #NO_DEADLINE}
 */
public record Caller(String client, String transport, long deadlineNanos) {

    /** The client id of a request without a token, on a server with {@code idgen.server.anonymous=true}. */
    public static final String ANONYMOUS = "anonymous";

    /**
     * The client id of a request on Leaf's paths without a token, on a server with
     * {@code idgen.server.compat.leaf.tokenless-names}: only those names, its own rate limit.
     */
    public static final String LEAF_TOKENLESS = "leaf-tokenless";

    /**
     * The client of Tinyid's requests whose token comes from Tinyid's own token table
     * ({@code idgen.server.compat.tinyid.token-table}); the token itself never becomes a meter tag.
     */
    public static final String TINYID_TOKENS = "tinyid-tokens";

    /** The deadline of a caller that set none: only the server's own request timeout bounds its wait. */
    public static final long NO_DEADLINE = Long.MAX_VALUE;

    /** A caller without a deadline of its own. */
    public Caller(String client, String transport) {
        this(client, transport, NO_DEADLINE);
    }

    /** @return this caller, waiting until {@code nanoTime} at most */
    public Caller withDeadline(long nanoTime) {
        return new Caller(client, transport, nanoTime);
    }

    /**
     * @param timeoutNanos the server's own bound on a request
     * @param now {@link System#nanoTime()}
     * @return how long the caller's work may wait from now, at most {@code timeoutNanos}; 0 or less when it passed
     */
    public long waitNanos(long timeoutNanos, long now) {
        return deadlineNanos == NO_DEADLINE ? timeoutNanos : Math.min(timeoutNanos, deadlineNanos - now);
    }
}
