package dev.idgen.client;

import dev.idgen.core.CircuitBreaker;
import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.PermissionDeniedException;
import dev.idgen.core.StoreUnavailableException;
import dev.idgen.core.TimeSource;
import dev.idgen.core.segment.Segment;
import dev.idgen.core.segment.SegmentStore;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;

/**
 * A {@link SegmentStore} that takes its blocks from idgen servers over HTTP: {@code POST {server}/blocks/{name}
 * ?size=N&above=F}, answered by {@code {"name":"orders","first":"1001","last":"2000","size":1000}}.
 *
 * <h2>Which server</h2>
 * Calls spread round-robin: a counter picks the first server of each call, and the call moves on to the next
 * servers in order while one fails, until one gives a block or {@link Builder#timeout(Duration) the overall
 * timeout} is spent; each server is asked at most once per call. A server whose breaker is open is skipped; when
 * every server's is open, the one that reopens first is tried anyway rather than failing without asking anyone. A
 * server that answered 429 is skipped until its {@code Retry-After} has passed.
 *
 * <h2>Failures</h2>
 * <ul>
 * <li>5xx (or any status not listed here), a refused or reset connection, no answer within the per-request timeout,
 * a body that is not a valid block: a failure for that server's breaker, and the next server is asked.</li>
 * <li>429: the server is skipped until its {@code Retry-After} (seconds or an HTTP date; 1 s when absent, at most
 * 10 minutes) and the next one is asked; the breaker is left alone, as the server is up.</li>
 * <li>400: the request was wrong, and every server would say so: {@link InvalidArgumentException} with the server's
 * detail, at once.</li>
 * <li>403: the client may not use the name, the same on every server: {@link PermissionDeniedException} naming the
 * name and (in the server's detail) the client, at once. The segment engine neither retries it in the background
 * nor counts it as an outage.</li>
 * <li>401, 404: the token or the name is wrong, the same on every server: {@link RemoteRefusalException} with the
 * server's detail, at once.</li>
 * <li>No server gave a block within the timeout: {@link StoreUnavailableException} listing each server and why.</li>
 * </ul>
 *
 * <h2>Why no ID is ever served twice</h2>
 * Every block comes from one server's own store, which never hands out a range twice (the {@link SegmentStore}
 * contract). A request that timed out may still have been served: sending it again (to that server or another) asks
 * for a fresh block, so the block the lost answer carried is skipped, leaving a gap, never a repeat. A block is used
 * only after it was checked: exactly the {@code step} IDs asked for, the name asked for, and above the floor the
 * caller passed to {@link #allocateAbove(String, long, long)}; one that is not is counted as a server fault and
 * dropped, never returned. The servers must share one backing store per name (as instances of the server normally
 * do): servers with stores of their own would hand out the same IDs.
 *
 * <p>Thread-safe; one {@link HttpClient} per store. {@link #close()} stops its threads.
 */
public final class RemoteSegmentStore implements SegmentStore, AutoCloseable {

    /** The default connect timeout. */
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(1);

    /** The default per-request timeout. */
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(1);

    /** The default overall timeout of one call. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(3);

    /** The default number of consecutive failures that open a server's breaker. */
    public static final int DEFAULT_FAILURE_THRESHOLD = 3;

    /** The default time a server's breaker stays open. */
    public static final Duration DEFAULT_OPEN_DURATION = Duration.ofSeconds(5);

    /** The longest any duration may be: more is a unit mistake. */
    static final Duration MAX_DURATION = Duration.ofMinutes(10);

    private final List<RemoteServer> servers;

    private final String authorization;

    private final Duration requestTimeout;

    private final Duration timeout;

    private final ExecutorService executor;

    private final HttpClient client;

    private final TimeSource clock;

    private final AtomicInteger next = new AtomicInteger();

    private volatile boolean closed;

    private RemoteSegmentStore(Builder builder) {
        this.clock = builder.timeSource;
        List<RemoteServer> list = new ArrayList<>();
        for (URI uri : builder.servers) {
            list.add(new RemoteServer(
                    uri, new CircuitBreaker(builder.openDuration, builder.failureThreshold, clock), clock));
        }
        this.servers = List.copyOf(list);
        this.authorization = builder.token == null ? null : "Bearer " + builder.token;
        this.requestTimeout = builder.requestTimeout;
        this.timeout = builder.timeout;
        // An executor of our own, so that close() can stop the client's threads (HttpClient has no close on 17).
        this.executor = Executors.newCachedThreadPool(daemonThreads());
        HttpClient.Builder http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(builder.connectTimeout)
                .followRedirects(HttpClient.Redirect.NEVER)
                .executor(executor);
        if (builder.sslContext != null) {
            http.sslContext(builder.sslContext);
        }
        this.client = http.build();
    }

    /** @return a builder */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public Segment allocate(String name, long step) {
        return take(name, step, 0);
    }

    /**
     * Asks for a block above {@code floor} ({@code above=floor}); the block returned is checked to be above it.
     */
    @Override
    public Segment allocateAbove(String name, long step, long floor) {
        return take(name, step, floor);
    }

    private Segment take(String name, long step, long floor) {
        Objects.requireNonNull(name, "name");
        if (step < 1) {
            throw new InvalidArgumentException("step", step, "step must be at least 1, but was " + step);
        }
        if (floor < 0) {
            throw new InvalidArgumentException("floor", floor, "floor must be at least 0, but was " + floor);
        }
        checkOpen();
        long deadline = System.nanoTime() + timeout.toNanos();
        int count = servers.size();
        int first = Math.floorMod(next.getAndIncrement(), count);
        String query = "?size=" + step + (floor > 0 ? "&above=" + floor : "");
        String path = "/" + URLEncoder.encode(name, StandardCharsets.UTF_8).replace("+", "%20") + query;
        List<String> why = new ArrayList<>();
        boolean asked = false;
        for (int i = 0; i < count; i++) {
            RemoteServer server = servers.get((first + i) % count);
            long remaining = deadline - System.nanoTime();
            if (remaining <= 0) {
                why.add(server + ": not asked, the timeout of " + timeout + " was spent");
                continue;
            }
            if (server.rateLimited()) {
                why.add(server + ": skipped, it asked (429) to wait");
                continue;
            }
            if (!server.breaker().tryAcquire()) {
                why.add(server + ": skipped, its breaker is open");
                continue;
            }
            asked = true;
            Segment segment = ask(server, name, step, floor, path, remaining, why);
            if (segment != null) {
                return segment;
            }
        }
        if (!asked) {
            RemoteServer soonest = soonestToReopen();
            long remaining = deadline - System.nanoTime();
            if (soonest != null && remaining > 0) {
                why.add(soonest + ": asked although its breaker is open, as every server's is");
                soonest.breaker().forceProbe();
                Segment segment = ask(soonest, name, step, floor, path, remaining, why);
                if (segment != null) {
                    return segment;
                }
            }
        }
        throw new StoreUnavailableException("No idgen server gave a block of " + step + " IDs of '" + name + "'"
                + (floor > 0 ? " above " + floor : "") + " within " + timeout + ": " + String.join("; ", why));
    }

    /** @return the server not rate limited whose breaker reopens first, or null when all are rate limited */
    private RemoteServer soonestToReopen() {
        RemoteServer soonest = null;
        for (RemoteServer server : servers) {
            if (!server.rateLimited()
                    && (soonest == null
                            || server.breaker().probeAllowedAt()
                                            - soonest.breaker().probeAllowedAt()
                                    < 0)) {
                soonest = server;
            }
        }
        return soonest;
    }

    /**
     * @return the block, or null when the server failed (recorded in {@code why} and its breaker)
     * @throws InvalidArgumentException on 400
     * @throws PermissionDeniedException on 403
     * @throws RemoteRefusalException on 401, 404
     */
    private Segment ask(
            RemoteServer server,
            String name,
            long step,
            long floor,
            String path,
            long remainingNanos,
            List<String> why) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(server.blocksUrl() + path))
                .POST(HttpRequest.BodyPublishers.noBody())
                .header("Accept", "application/json, application/problem+json");
        HttpResponse<String> response;
        try {
            response = send(request, remainingNanos);
        } catch (InterruptedException e) {
            server.breaker().onAbandoned();
            Thread.currentThread().interrupt();
            throw new StoreUnavailableException(
                    "Interrupted while asking " + server + " for a block of '" + name + "'", e);
        } catch (Failure e) {
            return failed(server, e.getMessage(), why);
        }
        int status = response.statusCode();
        if (status == 200) {
            String invalid;
            try {
                Segment segment = RemoteAnswers.block(response.body(), name, step, floor);
                server.breaker().onSuccess();
                server.succeeded();
                return segment;
            } catch (IllegalArgumentException e) {
                invalid = "answered with a block that is not valid (" + e.getMessage() + ")";
            }
            return failed(server, invalid, why);
        }
        RemoteProblem problem = RemoteProblem.of(response);
        if (status == 429) {
            long wait = RemoteAnswers.retryAfterNanos(response, clock, MAX_DURATION);
            server.rateLimit(wait);
            server.breaker().onAbandoned();
            server.failed("429 rate limited");
            why.add(server + ": rate limited (429), not asked again for " + Duration.ofNanos(wait));
            return null;
        }
        if (status == 400 || status == 401 || status == 403 || status == 404) {
            // Answered, so the server is up; but every server would refuse the same way.
            server.breaker().onSuccess();
            server.failed(status + " " + problem.summary());
            throw refusal(server, status, problem, name);
        }
        return failed(server, "answered " + status + " " + problem.summary(), why);
    }

    private RuntimeException refusal(RemoteServer server, int status, RemoteProblem problem, String name) {
        String said = problem.summary();
        return switch (status) {
            case 400 ->
                new InvalidArgumentException(
                        problem.parameter == null ? "name" : problem.parameter,
                        null,
                        "idgen server " + server + " refused the request for a block of '" + name + "' (400): " + said);
            case 401 ->
                new RemoteRefusalException(
                        server.uri(),
                        status,
                        problem.detail,
                        "idgen server " + server + " did not accept the token (401): " + said
                                + ". Check the token the client sends (Authorization: Bearer)");
            case 403 ->
                // The server's detail names the client ("The client 'orders-service' may not use the name ...").
                new PermissionDeniedException(
                        name,
                        "idgen server " + server + " does not let this client take blocks of '" + name + "' (403): "
                                + said + ". Add '" + name + "' to the client's idgen.server.clients.<id>.names on the"
                                + " servers, or use a name the client may use");
            default ->
                new RemoteRefusalException(
                        server.uri(),
                        status,
                        problem.detail,
                        "idgen server " + server + " has no segment name '" + name + "' (404): " + said);
        };
    }

    private static Segment failed(RemoteServer server, String reason, List<String> why) {
        server.breaker().onFailure();
        server.failed(reason);
        why.add(server + ": " + reason);
        return null;
    }

    /**
     * Sends with the per-request timeout, capped by what is left of the call's. The wait is on the future rather
     * than on {@link HttpRequest#timeout()} alone, which bounds the headers only: a server that stalls inside the
     * body must not hold the call either.
     */
    private HttpResponse<String> send(HttpRequest.Builder request, long remainingNanos)
            throws InterruptedException, Failure {
        long nanos = Math.min(requestTimeout.toNanos(), remainingNanos);
        Duration wait = Duration.ofNanos(Math.max(nanos, TimeUnit.MILLISECONDS.toNanos(1)));
        request.timeout(wait);
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        CompletableFuture<HttpResponse<String>> future;
        try {
            future = client.sendAsync(request.build(), info -> new LimitedBody());
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new Failure("could not send the request: " + e.getMessage());
        }
        try {
            return future.get(wait.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            future.cancel(true);
            throw new Failure("no answer within " + wait.toMillis() + " ms");
        } catch (InterruptedException e) {
            future.cancel(true);
            throw e;
        } catch (ExecutionException | CancellationException e) {
            throw new Failure(describe(e.getCause() == null ? e : e.getCause()));
        }
    }

    private String describe(Throwable cause) {
        if (cause instanceof HttpConnectTimeoutException) {
            return "could not connect within the connect timeout";
        }
        if (cause instanceof HttpTimeoutException) {
            return "no answer within the request timeout";
        }
        String message = cause.getMessage();
        return cause.getClass().getSimpleName() + (message == null || message.isBlank() ? "" : ": " + message);
    }

    /**
     * Checks that some server answers an authenticated {@code GET {server}/blocks} within the overall timeout.
     *
     * @throws StoreUnavailableException listing each server and why, when none does
     */
    @Override
    public void checkAvailable() {
        checkAvailable(timeout);
    }

    /**
     * Checks that some server answers an authenticated {@code GET {server}/blocks} within {@code cap} (and the
     * overall timeout), trying them in order. Leaves the breakers and counts alone: a health check should not move
     * traffic.
     *
     * @param cap how long the check may take at most
     * @throws StoreUnavailableException listing each server and why, when none answers
     */
    public void checkAvailable(Duration cap) {
        checkOpen();
        long deadline = System.nanoTime() + Math.min(cap.toNanos(), timeout.toNanos());
        List<String> why = new ArrayList<>();
        for (RemoteServer server : servers) {
            long remaining = deadline - System.nanoTime();
            if (remaining <= 0) {
                why.add(server + ": not asked, out of time");
                continue;
            }
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(server.blocksUrl()))
                    .GET()
                    .header("Accept", "application/json, application/problem+json");
            try {
                HttpResponse<String> response = send(request, remaining);
                if (response.statusCode() == 200) {
                    Map<String, Object> body;
                    try {
                        body = FlatJson.parseObject(response.body());
                    } catch (IllegalArgumentException e) {
                        why.add(server + ": answered 200 with " + e.getMessage());
                        continue;
                    }
                    if (body.get("names") instanceof List) {
                        return;
                    }
                    why.add(server + ": answered 200 without a list of names");
                } else {
                    why.add(server + ": answered " + response.statusCode() + " "
                            + RemoteProblem.of(response).summary());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new StoreUnavailableException("Interrupted while checking the idgen servers", e);
            } catch (Failure e) {
                why.add(server + ": " + e.getMessage());
            }
        }
        throw new StoreUnavailableException("No idgen server answered: " + String.join("; ", why));
    }

    /**
     * @return every server with its breaker's state and counts, in the configured order; live views
     */
    public List<RemoteServer> servers() {
        return servers;
    }

    /** @return the overall timeout of one call */
    public Duration timeout() {
        return timeout;
    }

    /**
     * Stops the store's executor; calls after it fail with {@link StoreUnavailableException}. The JDK's
     * {@code HttpClient} has no close before JDK 21: its selector thread ends once the client is unreachable.
     */
    @Override
    public void close() {
        closed = true;
        executor.shutdownNow();
    }

    private void checkOpen() {
        if (closed) {
            throw new StoreUnavailableException("The remote segment store is closed");
        }
    }

    @Override
    public String toString() {
        return "RemoteSegmentStore" + servers;
    }

    private static ThreadFactory daemonThreads() {
        AtomicInteger number = new AtomicInteger();
        return task -> {
            Thread thread = new Thread(task, "idgen-remote-" + number.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }

    /** A request that got no usable answer; the message says why. */
    private static final class Failure extends Exception {

        private static final long serialVersionUID = 1L;

        Failure(String message) {
            super(message, null, false, false);
        }
    }

    /**
     * Builds a {@link RemoteSegmentStore}. Every setting is checked by {@link #build()}, which names the setting it
     * refuses ({@link InvalidArgumentException#argument()}).
     */
    public static final class Builder {

        private List<URI> servers = List.of();

        private String token;

        private SSLContext sslContext;

        private Duration connectTimeout = DEFAULT_CONNECT_TIMEOUT;

        private Duration requestTimeout = DEFAULT_REQUEST_TIMEOUT;

        private Duration timeout = DEFAULT_TIMEOUT;

        private int failureThreshold = DEFAULT_FAILURE_THRESHOLD;

        private Duration openDuration = DEFAULT_OPEN_DURATION;

        private TimeSource timeSource = TimeSource.system();

        private Builder() {}

        /**
         * @param servers the servers' base URLs (blocks are at {@code {url}/blocks/{name}}): at least one, each http
         *        or https with a host and no query or fragment
         * @return this builder
         */
        public Builder servers(List<URI> servers) {
            this.servers = servers == null ? null : new ArrayList<>(servers);
            return this;
        }

        /**
         * @param servers the servers' base URLs
         * @return this builder
         */
        public Builder servers(URI... servers) {
            return servers(servers == null ? null : List.of(servers));
        }

        /**
         * @param token the bearer token sent to every server, or null for servers that take anonymous clients
         * @return this builder
         */
        public Builder token(String token) {
            this.token = token;
            return this;
        }

        /**
         * @param sslContext the TLS context for https servers (a private CA's trust store, a client certificate), or
         *        null for the JDK's default
         * @return this builder
         */
        public Builder sslContext(SSLContext sslContext) {
            this.sslContext = sslContext;
            return this;
        }

        /**
         * @param connectTimeout how long opening a connection may take; default 1 s
         * @return this builder
         */
        public Builder connectTimeout(Duration connectTimeout) {
            this.connectTimeout = connectTimeout;
            return this;
        }

        /**
         * @param requestTimeout how long one server may take to answer; at most {@code timeout}; default 1 s
         * @return this builder
         */
        public Builder requestTimeout(Duration requestTimeout) {
            this.requestTimeout = requestTimeout;
            return this;
        }

        /**
         * @param timeout how long one allocation may take in all, over every server it asks; default 3 s
         * @return this builder
         */
        public Builder timeout(Duration timeout) {
            this.timeout = timeout;
            return this;
        }

        /**
         * @param failureThreshold how many consecutive failures open a server's breaker, at least 1; default 3
         * @return this builder
         */
        public Builder failureThreshold(int failureThreshold) {
            this.failureThreshold = failureThreshold;
            return this;
        }

        /**
         * @param openDuration how long an open breaker keeps its server out before one trial request; default 5 s
         * @return this builder
         */
        public Builder openDuration(Duration openDuration) {
            this.openDuration = openDuration;
            return this;
        }

        /**
         * @param timeSource the clock of the breakers and of Retry-After: its {@link TimeSource#nanoTime()} for how
         *        long, its {@link TimeSource#currentTimeMillis()} for a Retry-After given as an HTTP date; the
         *        timeouts run on the real clock, as the HTTP client does
         * @return this builder
         */
        public Builder timeSource(TimeSource timeSource) {
            this.timeSource = timeSource;
            return this;
        }

        /**
         * @return the store
         * @throws InvalidArgumentException naming the setting that is wrong
         */
        public RemoteSegmentStore build() {
            if (servers == null || servers.isEmpty()) {
                throw new InvalidArgumentException(
                        "servers",
                        servers,
                        "servers must list at least one idgen server URL, such as" + " http://idgen-1:8080");
            }
            for (int i = 0; i < servers.size(); i++) {
                checkServer(i, servers.get(i));
            }
            if (token != null && (token.isBlank() || token.chars().anyMatch(c -> c < 0x21 || c > 0x7e))) {
                throw new InvalidArgumentException(
                        "token", null, "token must be printable ASCII without spaces (or null for none)");
            }
            positive("connectTimeout", connectTimeout);
            positive("requestTimeout", requestTimeout);
            positive("timeout", timeout);
            if (requestTimeout.compareTo(timeout) > 0) {
                throw new InvalidArgumentException(
                        "requestTimeout",
                        requestTimeout,
                        "requestTimeout must not exceed timeout (" + timeout + "), but was " + requestTimeout);
            }
            if (failureThreshold < 1 || failureThreshold > CircuitBreaker.MAX_FAILURE_THRESHOLD) {
                throw new InvalidArgumentException(
                        "failureThreshold",
                        failureThreshold,
                        "failureThreshold must be between 1 and " + CircuitBreaker.MAX_FAILURE_THRESHOLD + ", but was "
                                + failureThreshold);
            }
            if (openDuration == null || openDuration.isNegative() || openDuration.compareTo(MAX_DURATION) > 0) {
                throw new InvalidArgumentException(
                        "openDuration",
                        openDuration,
                        "openDuration must be between 0 and " + MAX_DURATION + ", but was " + openDuration);
            }
            if (timeSource == null) {
                throw new InvalidArgumentException("timeSource", null, "timeSource must not be null");
            }
            return new RemoteSegmentStore(this);
        }

        private static void checkServer(int index, URI uri) {
            String scheme = uri == null || uri.getScheme() == null
                    ? null
                    : uri.getScheme().toLowerCase(Locale.ROOT);
            String problem = null;
            if (uri == null) {
                problem = "is missing";
            } else if (!"http".equals(scheme) && !"https".equals(scheme)) {
                problem = "is not an http or https URL";
            } else if (uri.getHost() == null) {
                problem = "has no host";
            } else if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
                problem = "has a query or fragment; give the base URL only";
            }
            if (problem != null) {
                throw new InvalidArgumentException(
                        "servers",
                        uri,
                        "servers[" + index + "] " + problem + ": '" + uri + "' (each must be http or https with a"
                                + " host and no query or fragment, such as https://idgen-1:8443)");
            }
        }

        private static void positive(String name, Duration value) {
            if (value == null || value.isNegative() || value.isZero() || value.compareTo(MAX_DURATION) > 0) {
                throw new InvalidArgumentException(
                        name, value, name + " must be more than 0 and at most " + MAX_DURATION + ", but was " + value);
            }
        }
    }
}
