package dev.idgen.spring.boot.autoconfigure.endpoint;

import dev.idgen.core.ForwardingIdService;
import dev.idgen.core.IdService;
import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.ReadableIdService;
import dev.idgen.core.RoutingIdService;
import dev.idgen.core.form.FormOnlyIdService;
import dev.idgen.core.form.IdForm;
import dev.idgen.core.form.IdForms;
import dev.idgen.redis.BucketedRedisSequence;
import dev.idgen.spring.boot.autoconfigure.IdgenStrategies;
import dev.idgen.spring.boot.autoconfigure.core.IdgenProperties;
import dev.idgen.spring.boot.autoconfigure.segment.SegmentHealth;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
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
    static final int LISTED_NAMES = SegmentHealth.LISTED_NAMES;

    private static final boolean REDIS_PRESENT =
            ClassUtils.isPresent("io.lettuce.core.RedisClient", IdgenEndpoint.class.getClassLoader());

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
            throw new InvalidEndpointRequestException(
                    "Unknown operation '" + shown(operation) + "'",
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
        return forms.decoder(generator);
    }

    private IdService generatorNamed(String generator) {
        Map<String, IdService> generators = RoutingIdService.generatorsOf(ids);
        IdService service = generators.get(generator);
        if (service == null) {
            String message = "Unknown generator '" + shown(generator) + "': the generators are " + generators.keySet();
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
        boolean formOnly = service instanceof FormOnlyIdService;
        if (!formOnly) {
            detail.put("strategy", service.strategy());
        }
        detail.put("form", form(name).form());
        if (stores.get(name) != null) {
            detail.put("store", stores.get(name));
        }
        // A period or shard wrapper keeps no state of its own: the generator underneath is what there is to show.
        IdService backend = ForwardingIdService.innermost(service);
        for (IdgenProperties.Strategy strategy : IdgenProperties.Strategy.values()) {
            IdgenStrategies.of(strategy).describe(backend, detail);
        }
        if (REDIS_PRESENT && RoutingIdService.DEFAULT_GENERATOR.equals(name)) {
            RedisParts.describe(detail, readableIds);
        }
        return detail;
    }

    /**
     * Every generator by name.
     *
     * @param generators each generator's details, the default generator first
     */
    public record GeneratorsDescriptor(Map<String, Map<String, Object>> generators) implements OperationResponseBody {}

    /** The readable IDs' Redis parts, kept apart so that the endpoint loads no Redis class when Lettuce is absent. */
    private static final class RedisParts {

        static void describe(Map<String, Object> detail, ReadableIdService readableIds) {
            if (readableIds instanceof BucketedRedisSequence buckets) {
                Map<String, Object> breakers = new LinkedHashMap<>();
                breakers.put("buckets", buckets.bucketCount());
                breakers.put("open", buckets.openBuckets());
                detail.put("readableIdBreakers", breakers);
            }
        }
    }
}
