package dev.idgen.server.access;

import dev.idgen.server.Caller;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The tokens of Tinyid's own token table ({@code tiny_id_token}), for Tinyid's callers that keep the tokens they have:
 * each may use the biz types its rows list, as the client {@value Caller#TINYID_TOKENS}. Read at start-up and again
 * every minute on a thread of its own, as Tinyid does; a read that fails keeps the tokens read before. Tokens are
 * kept as their SHA-256 and compared in constant time, as {@link ServerClients} keeps its clients'.
 */
public final class TinyidTokens implements AutoCloseable {

    /** How often the table is read again: Tinyid's own period. */
    static final long REFRESH_SECONDS = 60;

    private record Known(byte[] digest, Set<String> bizTypes) {}

    private final Supplier<Map<String, Set<String>>> table;
    private final Caller caller = new Caller(Caller.TINYID_TOKENS, "http");
    private final ScheduledExecutorService refresher;
    private volatile Map<ByteBuffer, Known> byDigest;

    /**
     * Reads the table once (its failures fail the caller: start-up) and then every minute.
     *
     * @param table reads each token's biz types
     */
    public TinyidTokens(Supplier<Map<String, Set<String>>> table) {
        this.table = table;
        this.byDigest = digests(table.get());
        this.refresher = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "idgen-tinyid-tokens");
            thread.setDaemon(true);
            return thread;
        });
        refresher.scheduleWithFixedDelay(this::refresh, REFRESH_SECONDS, REFRESH_SECONDS, TimeUnit.SECONDS);
    }

    /** Reads the table again; a failure keeps the tokens read before. */
    void refresh() {
        try {
            byDigest = digests(table.get());
        } catch (RuntimeException e) {
            System.getLogger(TinyidTokens.class.getName())
                    .log(
                            System.Logger.Level.WARNING,
                            "Tinyid's token table could not be read again; the tokens read before stay: "
                                    + e.getMessage());
        }
    }

    /**
     * @return the caller when the token's rows list the biz type, or {@code null}
     */
    public Caller caller(String token, String bizType) {
        byte[] digest = ServerClients.sha256(token);
        Known known = byDigest.get(ByteBuffer.wrap(digest));
        if (known == null
                || !MessageDigest.isEqual(known.digest(), digest)
                || !known.bizTypes().contains(bizType)) {
            return null;
        }
        return caller;
    }

    private static Map<ByteBuffer, Known> digests(Map<String, Set<String>> tokens) {
        Map<ByteBuffer, Known> digests = new HashMap<>();
        tokens.forEach((token, bizTypes) -> {
            byte[] digest = ServerClients.sha256(token);
            digests.put(ByteBuffer.wrap(digest), new Known(digest, Set.copyOf(bizTypes)));
        });
        return Map.copyOf(digests);
    }

    @Override
    public void close() {
        refresher.shutdownNow();
    }
}
