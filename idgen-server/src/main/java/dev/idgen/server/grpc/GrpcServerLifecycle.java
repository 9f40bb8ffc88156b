package dev.idgen.server.grpc;

import dev.idgen.server.IdgenServerApi;
import io.grpc.InsecureServerCredentials;
import io.grpc.Server;
import io.grpc.ServerCredentials;
import io.grpc.ServerInterceptors;
import io.grpc.TlsServerCredentials;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.protobuf.services.HealthStatusManager;
import io.grpc.protobuf.services.ProtoReflectionServiceV1;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.context.SmartLifecycle;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Runs the gRPC server with the Spring context: it starts listening once the context is ready and stops (letting
 * calls in flight finish for the grace period) before the generators close. Besides {@code idgen.v1.Idgen} it serves
 * the standard health service (without a token: load balancers probe it, and it tells nothing but SERVING) and server
 * reflection (with a client's token), so that {@code grpcurl} and load balancers need no proto file.
 */
public final class GrpcServerLifecycle implements SmartLifecycle {

    /** The property holding the port gRPC listens on once it runs, as {@code local.server.port} does for HTTP. */
    public static final String LOCAL_PORT_PROPERTY = "local.grpc.port";

    private static final Log LOG = LogFactory.getLog(GrpcServerLifecycle.class);

    private final GrpcServerProperties properties;

    private final IdgenGrpcService service;

    /** Checks the tokens of the services beside the API's own. */
    private final IdgenServerApi api;

    private final GrpcTls tls;

    /** The address to bind, empty for every one. */
    private final String address;

    private final HealthStatusManager health = new HealthStatusManager();

    private final ConfigurableEnvironment environment;

    private volatile Server server;

    private volatile ThreadPoolExecutor executor;

    /** The most calls queued for a gRPC thread; past it, a call starts on the transport's own thread. */
    static final int QUEUE = 10_000;

    /** The largest request: a name, a count, a key; nothing near this. */
    static final int MAX_MESSAGE_BYTES = 16 * 1024;

    /** The largest header block: a bearer token and a few entries. */
    static final int MAX_METADATA_BYTES = 16 * 1024;

    /**
     * @param tls the TLS to serve, or {@code null} for plain text
     * @param address the address to bind, empty for every one
     * @param environment where the chosen port is published as {@value #LOCAL_PORT_PROPERTY}
     */
    GrpcServerLifecycle(
            GrpcServerProperties properties,
            IdgenGrpcService service,
            IdgenServerApi api,
            GrpcTls tls,
            String address,
            ConfigurableEnvironment environment) {
        this.properties = properties;
        this.service = service;
        this.api = api;
        this.tls = tls;
        this.address = address;
        this.environment = environment;
    }

    @Override
    public void start() {
        int port = properties.getPort();
        InetSocketAddress bound =
                address.isEmpty() ? new InetSocketAddress(port) : new InetSocketAddress(address, port);
        AtomicInteger number = new AtomicInteger();
        // Bounded threads and queue, where grpc-java's default is an unbounded pool. A call past the queue runs on the
        // caller's (Netty's) thread rather than being rejected, which grpc-java cannot answer (grpc-java#636); it is
        // short either way, since waits for a store are bounded by StoreWork and each request's timeout.
        ThreadPoolExecutor calls = new ThreadPoolExecutor(
                properties.getThreads(),
                properties.getThreads(),
                60,
                TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(QUEUE),
                task -> {
                    Thread thread = new Thread(task, "idgen-grpc-" + number.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                },
                new ThreadPoolExecutor.CallerRunsPolicy());
        calls.allowCoreThreadTimeOut(true);
        executor = calls;
        NettyServerBuilder builder = NettyServerBuilder.forAddress(bound, credentials())
                .executor(calls)
                .maxConcurrentCallsPerConnection(properties.getMaxCallsPerConnection())
                .maxInboundMessageSize(MAX_MESSAGE_BYTES)
                .maxInboundMetadataSize(MAX_METADATA_BYTES);
        Server started;
        try {
            started = builder.addService(ServerInterceptors.intercept(service, new AuthorizationInterceptor()))
                    .addService(health.getHealthService())
                    .addService(ServerInterceptors.intercept(
                            ProtoReflectionServiceV1.newInstance(), new TokenRequired(api)))
                    .build()
                    .start();
        } catch (IOException e) {
            calls.shutdownNow();
            executor = null;
            throw new UncheckedIOException(
                    "idgen's gRPC server could not listen on " + (address.isEmpty() ? "*" : address) + ":" + port
                            + " (idgen.server.grpc.port, idgen.server.grpc.address): " + e.getMessage(),
                    e);
        }
        health.setStatus("", ServingStatus.SERVING);
        health.setStatus("idgen.v1.Idgen", ServingStatus.SERVING);
        server = started;
        environment
                .getPropertySources()
                .addFirst(new MapPropertySource("idgen.grpc.local", Map.of(LOCAL_PORT_PROPERTY, started.getPort())));
        LOG.info("idgen gRPC server listening on port " + started.getPort()
                + (address.isEmpty() ? "" : " of " + address) + (tls == null ? "" : " (TLS)"));
    }

    private ServerCredentials credentials() {
        if (tls == null) {
            return InsecureServerCredentials.create();
        }
        SslBundle bundle = tls.bundle();
        TlsServerCredentials.Builder credentials = TlsServerCredentials.newBuilder()
                .keyManager(bundle.getManagers().getKeyManagers());
        if (tls.requireClientCertificate()) {
            credentials
                    .trustManager(bundle.getManagers().getTrustManagers())
                    .clientAuth(TlsServerCredentials.ClientAuth.REQUIRE);
        }
        return credentials.build();
    }

    @Override
    public void stop() {
        Server running = server;
        if (running == null) {
            return;
        }
        health.enterTerminalState();
        running.shutdown();
        try {
            if (!running.awaitTermination(properties.getShutdownGracePeriod().toMillis(), TimeUnit.MILLISECONDS)) {
                running.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            running.shutdownNow();
            Thread.currentThread().interrupt();
        }
        server = null;
        ThreadPoolExecutor calls = executor;
        if (calls != null) {
            calls.shutdownNow();
            executor = null;
        }
    }

    @Override
    public boolean isRunning() {
        return server != null;
    }

    /**
     * Before the web server (and long before the generators, which are beans closed after all lifecycles stopped),
     * so that it stops taking calls first.
     */
    @Override
    public int getPhase() {
        return Integer.MAX_VALUE - 2048;
    }

    /**
     * @return the port gRPC listens on (the chosen one when configured as 0)
     * @throws IllegalStateException when it does not run
     */
    int port() {
        Server running = server;
        if (running == null) {
            throw new IllegalStateException("idgen's gRPC server does not run");
        }
        return running.getPort();
    }
}
