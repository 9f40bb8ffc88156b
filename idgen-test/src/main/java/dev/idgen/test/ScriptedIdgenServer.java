package dev.idgen.test;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.SSLContext;

/**
 * A stand-in for an idgen server, on the JDK's {@link HttpServer} (or {@link HttpsServer}) at 127.0.0.1 on a free port: it answers
 * {@code POST /blocks/{name}?size=N&above=F} with blocks from a counter (shared between peers that stand for one
 * backing store), {@code GET /blocks} with its names, and can be told to misbehave in each way a real server or the
 * network can ({@link Mode}).
 */
public final class ScriptedIdgenServer implements AutoCloseable {

    /** How the peer answers from now on. */
    public enum Mode {
        /** Valid blocks. */
        OK,
        /** 500 with a problem body. */
        FAIL,
        /** No answer until {@link #mode(Mode)} changes it or the peer closes (at most a minute). */
        HANG,
        /** The connection is closed without an answer. */
        CLOSE,
        /** 429 with the Retry-After set by {@link #retryAfter(String)}. */
        RATE_LIMITED,
        /** The status set by {@link #refuse(int, String, String)} with an application/problem+json body. */
        REFUSE,
        /** 200 with a body that is not JSON. */
        MALFORMED,
        /** 200 with a block one ID larger than asked for. */
        WRONG_SIZE,
        /** Blocks of one ID fewer than asked (as an interleaved store answers at a slot's end): a usable block. */
        SHORT,
        /** 200 with a block that starts at {@code above} (or 1), not above it. */
        NOT_ABOVE,
        /** 200 with a block of another name. */
        WRONG_NAME,
        /** 200 with a valid block padded to 100 KB by a field of its own. */
        OVERSIZED
    }

    private final HttpServer server;

    private final ExecutorService executor = Executors.newCachedThreadPool(task -> {
        Thread thread = new Thread(task, "scripted-idgen-server");
        thread.setDaemon(true);
        return thread;
    });

    private final AtomicLong counter;

    private final AtomicReference<Mode> mode = new AtomicReference<>(Mode.OK);

    private final AtomicReference<CountDownLatch> hang = new AtomicReference<>(new CountDownLatch(1));

    private final AtomicInteger blockRequests = new AtomicInteger();

    private final AtomicInteger listRequests = new AtomicInteger();

    private final AtomicReference<String> lastAuthorization = new AtomicReference<>();

    private final AtomicReference<String> lastQuery = new AtomicReference<>();

    private volatile String token;

    private volatile String retryAfter = "1";

    private volatile int refusalStatus = 400;

    private volatile String refusalDetail = "refused";

    private volatile String refusalParameter;

    /** A peer with a counter of its own. */
    public ScriptedIdgenServer() {
        this(new AtomicLong());
    }

    /**
     * @param counter the last ID handed out; peers given the same counter stand for servers over one store
     */
    public ScriptedIdgenServer(AtomicLong counter) {
        this(counter, null);
    }

    /**
     * @param counter the last ID handed out; peers given the same counter stand for servers over one store
     * @param tls the server's TLS context (its certificate and key): the peer speaks https
     * @return a peer that speaks https
     */
    public static ScriptedIdgenServer https(AtomicLong counter, SSLContext tls) {
        return new ScriptedIdgenServer(counter, tls);
    }

    private ScriptedIdgenServer(AtomicLong counter, SSLContext tls) {
        this.counter = counter;
        InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        try {
            if (tls == null) {
                server = HttpServer.create(address, 0);
            } else {
                HttpsServer https = HttpsServer.create(address, 0);
                https.setHttpsConfigurator(new HttpsConfigurator(tls));
                server = https;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.setExecutor(executor);
        server.createContext("/blocks", this::handle);
        server.start();
    }

    /** @return the base URL, {@code http://127.0.0.1:port} (or https) */
    public URI uri() {
        String scheme = server instanceof HttpsServer ? "https" : "http";
        return URI.create(scheme + "://127.0.0.1:" + server.getAddress().getPort());
    }

    /**
     * Changes how the peer answers; requests hanging in {@link Mode#HANG} are let go (and answer by the new mode).
     *
     * @return this peer
     */
    public ScriptedIdgenServer mode(Mode mode) {
        this.mode.set(mode);
        if (mode != Mode.HANG) {
            hang.getAndSet(new CountDownLatch(1)).countDown();
        }
        return this;
    }

    /** @return the token the peer requires (401 otherwise); null takes any request */
    public ScriptedIdgenServer token(String token) {
        this.token = token;
        return this;
    }

    /** @return this peer, answering 429 with {@code Retry-After: value} (null for none) in {@link Mode#RATE_LIMITED} */
    public ScriptedIdgenServer retryAfter(String value) {
        this.retryAfter = value;
        return this;
    }

    /** @return this peer, refusing with {@code status} and a problem body from now on */
    public ScriptedIdgenServer refuse(int status, String detail, String parameter) {
        this.refusalStatus = status;
        this.refusalDetail = detail;
        this.refusalParameter = parameter;
        return mode(Mode.REFUSE);
    }

    /** @return how many POSTs for blocks arrived, answered or not */
    public int blockRequests() {
        return blockRequests.get();
    }

    /** @return how many GETs of the list arrived */
    public int listRequests() {
        return listRequests.get();
    }

    /** @return the Authorization header of the last request, or null */
    public String lastAuthorization() {
        return lastAuthorization.get();
    }

    /** @return the query of the last POST, or null */
    public String lastQuery() {
        return lastQuery.get();
    }

    /** @return the last ID handed out */
    public long lastId() {
        return counter.get();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            lastAuthorization.set(exchange.getRequestHeaders().getFirst("Authorization"));
            boolean post = "POST".equals(exchange.getRequestMethod());
            if (post) {
                blockRequests.incrementAndGet();
                lastQuery.set(exchange.getRequestURI().getRawQuery());
            } else {
                listRequests.incrementAndGet();
            }
            Mode now = mode.get();
            if (now == Mode.HANG) {
                CountDownLatch latch = hang.get();
                try {
                    latch.await(1, TimeUnit.MINUTES);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                now = mode.get();
            }
            String expected = token;
            if (expected != null && !("Bearer " + expected).equals(lastAuthorization.get())) {
                problem(exchange, 401, "Unauthorized", "the bearer token is missing or unknown", null);
                return;
            }
            switch (now) {
                case FAIL -> problem(exchange, 500, "Internal Server Error", "scripted failure", null);
                case CLOSE -> throw new IllegalStateException("scripted: closing the connection without an answer");
                case RATE_LIMITED -> {
                    if (retryAfter != null) {
                        exchange.getResponseHeaders().set("Retry-After", retryAfter);
                    }
                    problem(exchange, 429, "Too Many Requests", "scripted rate limit", null);
                }
                case REFUSE -> problem(exchange, refusalStatus, "Refused", refusalDetail, refusalParameter);
                case MALFORMED -> send(exchange, 200, "application/json", "{\"name\":\"x\",\"first\":");
                default -> {
                    if (post) {
                        block(exchange, now);
                    } else {
                        send(
                                exchange,
                                200,
                                "application/json",
                                "{\"client\":\"scripted\",\"names\":[\"orders\"],\"generators\":[]}");
                    }
                }
            }
        }
    }

    private void block(HttpExchange exchange, Mode now) throws IOException {
        String path = exchange.getRequestURI().getPath();
        String name = path.substring(path.lastIndexOf('/') + 1);
        Map<String, String> query = query(exchange.getRequestURI().getRawQuery());
        long size = Long.parseLong(query.getOrDefault("size", "1"));
        long above = Long.parseLong(query.getOrDefault("above", "0"));
        long first;
        long last;
        if (now == Mode.NOT_ABOVE) {
            first = Math.max(above, 1);
            last = first + size - 1;
        } else {
            // Like a server's store: raise the counter to above, then take the next block.
            last = counter.updateAndGet(current -> Math.max(current, above) + size);
            first = last - size + 1;
            if (now == Mode.WRONG_SIZE) {
                last++;
            } else if (now == Mode.SHORT && size > 1) {
                last--;
            }
        }
        String answeredName = now == Mode.WRONG_NAME ? name + "-other" : name;
        send(
                exchange,
                200,
                "application/json",
                "{\"name\":\"" + answeredName + "\",\"first\":\"" + first + "\",\"last\":\"" + last + "\",\"size\":"
                        + (last - first + 1) + ",\"server\":{\"node\":\"scripted\"}"
                        + (now == Mode.OVERSIZED ? ",\"padding\":\"" + "x".repeat(100 * 1024) + "\"" : "")
                        + "}");
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> query = new LinkedHashMap<>();
        if (raw != null) {
            for (String pair : raw.split("&")) {
                int equals = pair.indexOf('=');
                if (equals > 0) {
                    query.put(pair.substring(0, equals), pair.substring(equals + 1));
                }
            }
        }
        return query;
    }

    private static void problem(HttpExchange exchange, int status, String title, String detail, String parameter)
            throws IOException {
        send(
                exchange,
                status,
                "application/problem+json",
                "{\"type\":\"about:blank\",\"status\":" + status + ",\"title\":\"" + title + "\",\"detail\":\"" + detail
                        + "\"" + (parameter == null ? "" : ",\"parameter\":\"" + parameter + "\"") + "}");
    }

    private static void send(HttpExchange exchange, int status, String type, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", type);
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    /** Stops the peer at once; hanging requests are let go. */
    @Override
    public void close() {
        hang.get().countDown();
        server.stop(0);
        executor.shutdownNow();
    }
}
