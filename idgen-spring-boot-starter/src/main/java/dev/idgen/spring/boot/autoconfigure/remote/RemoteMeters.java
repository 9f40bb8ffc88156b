package dev.idgen.spring.boot.autoconfigure.remote;

import dev.idgen.client.RemoteSegmentStore;
import dev.idgen.client.RemoteServer;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * Meters of the idgen servers, per server (tag {@code server}, its URL), all read from the store when scraped:
 * {@code idgen.remote.breaker.state} (0 closed, 1 half-open, 2 open) and {@code idgen.remote.requests} by
 * {@code outcome} ({@code ok}: a valid block; {@code failed}: anything else).
 */
public final class RemoteMeters implements MeterBinder {

    private final RemoteSegmentStore store;

    /**
     * @param store the shared store
     */
    public RemoteMeters(RemoteSegmentStore store) {
        this.store = store;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        for (RemoteServer server : store.servers()) {
            String url = server.uri().toString();
            Gauge.builder("idgen.remote.breaker.state", server, RemoteMeters::state)
                    .tag("server", url)
                    .description("The server's breaker: 0 closed, 1 half-open (one trial request), 2 open (skipped)")
                    .register(registry);
            FunctionCounter.builder("idgen.remote.requests", server, RemoteServer::successes)
                    .tag("server", url)
                    .tag("outcome", "ok")
                    .description("Requests for blocks to the server, by outcome: ok gave a valid block")
                    .register(registry);
            FunctionCounter.builder("idgen.remote.requests", server, RemoteServer::failures)
                    .tag("server", url)
                    .tag("outcome", "failed")
                    .description("Requests for blocks to the server, by outcome: ok gave a valid block")
                    .register(registry);
        }
    }

    static double state(RemoteServer server) {
        return switch (server.state()) {
            case CLOSED -> 0;
            case HALF_OPEN -> 1;
            case OPEN -> 2;
        };
    }
}
