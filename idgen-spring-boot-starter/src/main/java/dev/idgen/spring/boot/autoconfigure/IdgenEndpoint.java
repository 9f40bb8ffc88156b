package dev.idgen.spring.boot.autoconfigure;

import dev.idgen.core.ForwardingIdService;
import dev.idgen.core.IdService;
import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.ReadableIdService;
import dev.idgen.core.RoutingIdService;
import dev.idgen.core.form.IdForm;
import dev.idgen.core.form.IdForms;
import dev.idgen.core.lease.RenewingWorkerIdLease;
import dev.idgen.core.segment.SegmentBufferStats;
import dev.idgen.core.segment.SegmentIdService;
import dev.idgen.core.snowflake.SnowflakeGenerator;
import dev.idgen.core.snowflake.SnowflakeIdService;
import dev.idgen.core.spi.WorkerIdLease;
import dev.idgen.jdbc.TicketIdService;
import dev.idgen.jdbc.TicketServer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.util.ClassUtils;

/**
 * The {@code idgen} Actuator endpoint: what each generator is doing ({@code GET /actuator/idgen}, or one generator at
 * {@code GET /actuator/idgen/{generator}}), and what an ID carries ({@code GET /actuator/idgen/{generator}/decode/{id}}).
 *
 * <p>Reading it issues no ID and touches no store: it reports what the generators already know (the worker id and its
 * lease, each segment name's buffers, the circuit breakers), so it answers at once even while a store is down; the
 * {@code idgen} health is what checks the stores. Its size is bounded as the health's is: at most
 * {@value #LISTED_NAMES} segment names per generator, most urgent first, and a count of the rest. It offers no way to
 * issue IDs.
 */
@Endpoint(id = "idgen")
public final class IdgenEndpoint {

    /** How many segment names one generator lists one by one; the rest are only counted. */
    static final int LISTED_NAMES = SegmentGeneratorHealth.LISTED_NAMES;

    private static final boolean REDIS_PRESENT = ClassUtils.isPresent("io.lettuce.core.RedisClient",
            IdgenEndpoint.class.getClassLoader());

    private final IdService ids;

    private final IdForms forms;

    private final Map<String, String> stores;

    private final ReadableIdService readableIds;

    /**
     * @param ids the application's ID service
     * @param forms every generator's form
     * @param stores where each generator keeps its state, by generator name, as configured (for example
     *        {@code jdbc}); a generator missing here is listed without one
     * @param readableIds the readable-ID service, or null: listed with the default generator
     */
    IdgenEndpoint(IdService ids, IdForms forms, Map<String, String> stores, ReadableIdService readableIds) {
        this.ids = ids;
        this.forms = forms;
        this.stores = Map.copyOf(stores);
        this.readableIds = readableIds;
    }

    /**
     * @return every generator, the default one first
     */
    @ReadOperation
    public GeneratorsDescriptor generators() {
        Map<String, Map<String, Object>> all = new LinkedHashMap<>();
        RoutingIdService.generatorsOf(ids).forEach((name, service) -> all.put(name, describe(name, service)));
        return new GeneratorsDescriptor(Collections.unmodifiableMap(all));
    }

    /**
     * @param generator a generator's name: {@value RoutingIdService#DEFAULT_GENERATOR} or a named one
     * @return that generator's details
     * @throws InvalidEndpointRequestException (400) naming the known generators when there is no such generator
     */
    @ReadOperation
    public Map<String, Object> generator(@Selector String generator) {
        return describe(generator, generatorNamed(generator));
    }

    /**
     * What an ID carries, read by the named generator's form: {@code generator}, then the form's parts
     * ({@code form}, {@code timestamp}, ...). Times are ISO-8601 strings and 64-bit IDs decimal strings, for
     * JavaScript.
     *
     * @param generator a generator's name
     * @param operation {@code decode}
     * @param id the ID as its form writes it: a decimal number, a UUID, a public ID, ...
     * @throws InvalidEndpointRequestException (400) for an unknown generator or operation, or an ID that the
     *         generator cannot have issued
     */
    @ReadOperation
    public Map<String, Object> decode(@Selector String generator, @Selector String operation, @Selector String id) {
        if (!"decode".equals(operation)) {
            throw new InvalidEndpointRequestException("Unknown operation '" + shown(operation) + "'",
                    "Unknown operation '" + shown(operation) + "': use /idgen/{generator}/decode/{id}");
        }
        generatorNamed(generator);
        Map<String, Object> parts;
        try {
            parts = form(generator).decode(id);
        } catch (InvalidArgumentException e) {
            throw new InvalidEndpointRequestException(e.getMessage(), e.getMessage());
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("generator", generator);
        parts.forEach((key, value) -> body.put(key, json(key, value)));
        return body;
    }

    /** Reads without starting a sequence when the forms are idgen's own. */
    private IdForm form(String generator) {
        return forms instanceof IdgenForms idgen ? idgen.decoder(generator) : forms.form(generator);
    }

    private IdService generatorNamed(String generator) {
        Map<String, IdService> generators = RoutingIdService.generatorsOf(ids);
        IdService service = generators.get(generator);
        if (service == null) {
            String message = "Unknown generator '" + shown(generator) + "': the generators are "
                    + generators.keySet();
            throw new InvalidEndpointRequestException(message, message);
        }
        return service;
    }

    /** The parts of a decoded ID as JSON that JavaScript reads: a 64-bit {@code id} and times as strings. */
    private static Object json(String key, Object value) {
        if (value instanceof Instant || (key.equals("id") && value instanceof Long)) {
            return value.toString();
        }
        return value;
    }

    /** The name quoted in a message, cut short. */
    private static String shown(String value) {
        return value.length() > 80 ? value.substring(0, 80) + "..." : value;
    }

    private Map<String, Object> describe(String name, IdService service) {
        Map<String, Object> detail = new LinkedHashMap<>();
        boolean formOnly = service instanceof IdgenForms.FormOnlyIdService;
        if (!formOnly) {
            detail.put("strategy", service.strategy());
        }
        detail.put("form", form(name).form());
        if (stores.get(name) != null) {
            detail.put("store", stores.get(name));
        }
        // A period or shard wrapper keeps no state of its own: the generator underneath is what there is to show.
        IdService backend = ForwardingIdService.innermost(service);
        if (backend instanceof SnowflakeIdService snowflake) {
            snowflake(detail, snowflake.generator());
        } else if (backend instanceof SegmentIdService segments) {
            detail.put("segments", segments(segments));
            Map<String, Object> failovers = JdbcFailoverDetails.of(segments.store());
            if (!failovers.isEmpty()) {
                detail.put("failover", failovers);
            }
        } else if (backend instanceof TicketIdService tickets) {
            detail.put("breakers", breakers(tickets));
            Map<String, Object> failovers = new LinkedHashMap<>();
            for (TicketServer server : tickets.servers()) {
                failovers.put(server.id(), JdbcFailoverDetails.of(server));
            }
            detail.put("failover", failovers);
        }
        if (REDIS_PRESENT) {
            RedisParts.describe(detail, backend,
                    RoutingIdService.DEFAULT_GENERATOR.equals(name) ? readableIds : null);
        }
        return detail;
    }

    private static void snowflake(Map<String, Object> detail, SnowflakeGenerator generator) {
        WorkerIdLease lease = generator.lease();
        detail.put("workerId", lease.workerId());
        if (lease instanceof RenewingWorkerIdLease renewing) {
            Map<String, Object> leased = new LinkedHashMap<>();
            leased.put("owner", renewing.owner());
            leased.put("valid", renewing.isValid());
            leased.put("timeLeft", nonNegative(renewing.remaining()).toString());
            leased.put("renewals", renewing.renewals());
            leased.put("renewalFailures", renewing.renewalFailures());
            if (renewing.lastProblem() != null) {
                leased.put("lastProblem", renewing.lastProblem());
            }
            detail.put("lease", leased);
        }
        detail.put("lastTimestamp", Instant.ofEpochMilli(generator.lastTimestampMillis()).toString());
        Map<String, Object> layout = new LinkedHashMap<>();
        layout.put("exhaustsAt", generator.layout().exhaustedAt().toString());
        layout.put("remainingLifetimeDays", Math.max(0, generator.remainingLifetime().toDays()));
        detail.put("layout", layout);
        detail.put("clockBehindMillis", generator.clockBehindMillis());
        detail.put("closed", generator.isClosed());
    }

    private static Duration nonNegative(Duration duration) {
        return duration.isNegative() ? Duration.ZERO : duration;
    }

    /** The names by urgency as the health lists them: refusing first, then fewest IDs left. */
    private static Map<String, Object> segments(SegmentIdService segments) {
        List<SegmentBufferStats> all = new ArrayList<>(segments.stats());
        all.sort(Comparator.comparing((SegmentBufferStats stats) -> !stats.refusing())
                .thenComparingLong(SegmentBufferStats::remaining).thenComparing(SegmentBufferStats::name));
        Map<String, Object> names = new LinkedHashMap<>();
        for (SegmentBufferStats stats : all.subList(0, Math.min(LISTED_NAMES, all.size()))) {
            Map<String, Object> buffer = new LinkedHashMap<>();
            SegmentNameState.putRemaining(buffer, stats);
            buffer.put("served", stats.served());
            buffer.put("waits", stats.waits());
            buffer.put("loads", stats.fetches());
            buffer.put("failedLoads", stats.fetchFailures());
            buffer.put("lastLoad", stats.lastLoadMillis() < 0 ? null
                    : Instant.ofEpochMilli(stats.lastLoadMillis()).toString());
            buffer.put("loading", stats.loading());
            buffer.put("refusing", stats.refusing());
            if (stats.lastFailure() != null) {
                buffer.put("lastFailure", stats.lastFailure());
            }
            names.put(stats.name(), buffer);
        }
        Map<String, Object> detail = new LinkedHashMap<>();
        detail.put("nameCount", all.size());
        detail.put("maxNames", segments.maxNames());
        detail.put("names", names);
        detail.put("namesNotListed", all.size() - names.size());
        return detail;
    }

    private static Map<String, Object> breakers(TicketIdService tickets) {
        Map<String, Object> servers = new LinkedHashMap<>();
        for (TicketServer server : tickets.servers()) {
            servers.put(server.id(), server.isOpen() ? "open" : "closed");
        }
        return servers;
    }

    /**
     * Every generator by name.
     *
     * @param generators each generator's details, the default generator first
     */
    public record GeneratorsDescriptor(Map<String, Map<String, Object>> generators) implements OperationResponseBody {
    }

    /** The Redis parts, kept apart so that the endpoint loads no Redis class when Lettuce is absent. */
    private static final class RedisParts {

        static void describe(Map<String, Object> detail, IdService backend, ReadableIdService readableIds) {
            if (backend instanceof dev.idgen.redis.RedisIdService redis) {
                detail.put("redis", redis.counter().redis().describe());
                detail.put("windowsReserved", redis.counter().windowsReserved());
                detail.put("countersLost", redis.counter().lostCounters());
                detail.put("failoversSeen", redis.counter().failovers());
            }
            if (readableIds instanceof dev.idgen.redis.BucketedRedisSequence buckets) {
                Map<String, Object> breakers = new LinkedHashMap<>();
                breakers.put("buckets", buckets.bucketCount());
                breakers.put("open", buckets.openBuckets());
                detail.put("readableIdBreakers", breakers);
            }
        }
    }
}
