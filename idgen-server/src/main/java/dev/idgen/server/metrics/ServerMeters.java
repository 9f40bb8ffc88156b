package dev.idgen.server.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The server's meters, recorded by the service so that every transport has them: {@value #REQUESTS} (a timer per
 * client, name, operation, transport and outcome) and {@value #BLOCK_IDS} (IDs handed out in blocks, per client and
 * name). Each meter is built once and kept by its tags, so a request only looks one up.
 */
public final class ServerMeters {

    /** The timer of every request. */
    public static final String REQUESTS = "idgen.server.requests";

    /** The counter of IDs handed out in blocks. */
    public static final String BLOCK_IDS = "idgen.server.block.ids";

    /** The gauge of IDs a name has left before the highest ID a block may reach. */
    public static final String NAME_REMAINING = "idgen.server.name.remaining";

    /** The most distinct names tagged; later new names count under {@value #OTHER_NAMES}. */
    static final int MAX_NAME_TAGS = 1000;

    /** The name tag of requests for names past {@link #MAX_NAME_TAGS}. */
    static final String OTHER_NAMES = "other";

    private final MeterRegistry registry;

    /**
     * The names tagged so far: a client allowed every name could otherwise make a meter per name it invents, and
     * fill the heap and the scrape.
     */
    private final Set<String> names = ConcurrentHashMap.newKeySet();

    private final Map<RequestTags, Timer> timers = new ConcurrentHashMap<>();

    private final Map<BlockTags, Counter> counters = new ConcurrentHashMap<>();

    /** Per tagged name, what its gauge reads: kept here, as a gauge holds its object weakly. */
    private final Map<String, AtomicLong> remaining = new ConcurrentHashMap<>();

    private record RequestTags(String client, String name, String operation, String transport, String outcome) {}

    private record BlockTags(String client, String name) {}

    /** @param registry where the meters go */
    public ServerMeters(MeterRegistry registry) {
        this.registry = registry;
    }

    /**
     * @param client the client's id
     * @param name the sequence name, {@code invalid} when it broke the name rule
     * @param operation {@code ids}, {@code decode} or {@code block}
     * @param transport {@code http} or {@code grpc}
     * @param outcome {@code ok} or the refusal's reason in lower case
     * @param nanos how long the request took
     */
    public void request(String client, String name, String operation, String transport, String outcome, long nanos) {
        timers.computeIfAbsent(new RequestTags(client, tag(name), operation, transport, outcome), this::timer)
                .record(nanos, TimeUnit.NANOSECONDS);
    }

    /**
     * @param client the client's id
     * @param name the sequence name
     * @param ids how many IDs the block held
     */
    public void block(String client, String name, long ids) {
        counters.computeIfAbsent(new BlockTags(client, tag(name)), this::counter)
                .increment(ids);
    }

    /**
     * @param name the sequence name
     * @param ids how many IDs it has left below the highest ID a block may reach, as last seen by this server
     */
    public void remaining(String name, long ids) {
        String tag = tag(name);
        if (tag.equals(OTHER_NAMES)) {
            return; // an untagged name has no gauge: a lowest-of-many would move back and forth between names
        }
        remaining
                .computeIfAbsent(tag, key -> {
                    AtomicLong value = new AtomicLong(ids);
                    Gauge.builder(NAME_REMAINING, value, AtomicLong::doubleValue)
                            .description("IDs a name has left below the highest ID a block may reach, as last seen")
                            .tag("name", key)
                            .baseUnit("ids")
                            .register(registry);
                    return value;
                })
                .accumulateAndGet(ids, Math::min); // concurrent rises may arrive out of order
    }

    /**
     * @param below a count of IDs
     * @return the tagged names with fewer IDs than {@code below} left, with how many, as last seen
     */
    public Map<String, Long> namesWithLessThan(long below) {
        Map<String, Long> low = new TreeMap<>();
        remaining.forEach((name, ids) -> {
            long left = ids.get();
            if (left < below) {
                low.put(name, left);
            }
        });
        return low;
    }

    /** The name itself while fewer than {@link #MAX_NAME_TAGS} are tagged (a race may pass it by a few). */
    private String tag(String name) {
        if (names.contains(name)) {
            return name;
        }
        return names.size() < MAX_NAME_TAGS && names.add(name) || names.contains(name) ? name : OTHER_NAMES;
    }

    private Timer timer(RequestTags tags) {
        return Timer.builder(REQUESTS)
                .description("Requests to the idgen server, by client, name, operation, transport and outcome")
                .tag("client", tags.client())
                .tag("name", tags.name())
                .tag("operation", tags.operation())
                .tag("transport", tags.transport())
                .tag("outcome", tags.outcome())
                .register(registry);
    }

    private Counter counter(BlockTags tags) {
        return Counter.builder(BLOCK_IDS)
                .description("IDs handed out in blocks, by client and name")
                .tag("client", tags.client())
                .tag("name", tags.name())
                .register(registry);
    }
}
