package dev.idgen.server;

import dev.idgen.core.AsyncCalls;
import dev.idgen.core.ClockBackwardsException;
import dev.idgen.core.IdArguments;
import dev.idgen.core.IdGenerationException;
import dev.idgen.core.IdService;
import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.RoutingIdService;
import dev.idgen.core.StoreUnavailableException;
import dev.idgen.core.form.IdForm;
import dev.idgen.core.form.IdForms;
import dev.idgen.core.segment.InterleavedSegmentStore;
import dev.idgen.core.segment.Segment;
import dev.idgen.core.segment.SegmentIdService;
import dev.idgen.core.segment.SegmentStore;
import dev.idgen.server.ServerRefusal.Reason;
import dev.idgen.server.access.ClientAccess;
import dev.idgen.server.access.ServerClients;
import dev.idgen.server.metrics.ServerMeters;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * The server's one implementation of {@link IdgenServerApi}, behind every transport. Each request runs the same
 * steps: the name's rule, the client's rights on the name, its rate limit, the other arguments, the work; whatever
 * the outcome, it is timed in {@link ServerMeters#REQUESTS}. The core's exceptions leave as {@link ServerRefusal}s:
 * an invalid argument as BAD_ARGUMENT naming it, an ID that cannot be issued safely (store down, clock behind) as
 * UNAVAILABLE.
 */
public final class IdgenServerService implements IdgenServerApi {

    /** The name tag of a request whose name broke the name rule: the meters never carry arbitrary text. */
    static final String INVALID_NAME = "invalid";

    /** The name tag of a request for a name the client may not use: a client cannot make up tags. */
    static final String OTHER_NAME = "other";

    /** The highest ID a block may reach: the segment buffer's own limit (room below 2^63 for its arithmetic). */
    static final long HIGHEST_ID = Long.MAX_VALUE - (1L << 32);

    private static final Log LOG = LogFactory.getLog(IdgenServerService.class);

    /** Numbers the incidents a refusal names, with the start time to tell this run's from another's. */
    private static final AtomicLong INCIDENTS = new AtomicLong();

    private static final long STARTED = System.currentTimeMillis() / 1000;

    private final IdService ids;

    /** Every generator by name, the default one as {@code default}: fixed at start-up, so built once. */
    private final Map<String, IdService> generators;

    private final IdForms forms;

    private final ServerClients clients;

    private final ServerMeters meters;

    private final int maxCount;

    private final long maxBlockSize;

    private final BlockCeilings ceilings;

    private final StoreWork storeWork;

    private final long requestTimeoutNanos;

    /**
     * @param ids the starter's service, routing when there are named generators
     * @param forms every generator's form
     * @param clients who may call
     * @param meters where requests are recorded
     * @param maxCount the most IDs per request, already checked
     * @param maxBlockSize the most IDs per block, already checked
     * @param failoverJump how far the stores jump past what a failover may have lost: with the block size, how far
     *     above the IDs issued a client's floor may legitimately lie
     * @param storeWork where requests wait for a store, bounded
     * @param requestTimeout how long a request waits for a store at most (less when the caller's deadline is sooner)
     */
    public IdgenServerService(
            IdService ids,
            IdForms forms,
            ServerClients clients,
            ServerMeters meters,
            int maxCount,
            long maxBlockSize,
            long failoverJump,
            StoreWork storeWork,
            Duration requestTimeout) {
        this.ids = ids;
        this.generators = RoutingIdService.generatorsOf(ids);
        this.forms = forms;
        this.clients = clients;
        this.meters = meters;
        this.maxCount = maxCount;
        this.maxBlockSize = maxBlockSize;
        this.storeWork = storeWork;
        this.requestTimeoutNanos = requestTimeout.toNanos();
        this.ceilings = new BlockCeilings(
                failoverJump,
                maxBlockSize,
                (name, last) -> meters.remaining(name, Math.max(0, HIGHEST_ID - last)),
                System::nanoTime);
    }

    @Override
    public Caller authenticate(String authorization, String transport) {
        return clients.authenticate(authorization, transport);
    }

    @Override
    public IssuedIds nextIds(Caller caller, String name, int count, String shardKey) {
        return serve(caller, "ids", name, null, checked -> {
            if (count < 1 || count > maxCount) {
                throw badArgument("count", "count must be between 1 and " + maxCount + ", but was " + count);
            }
            IdForm form = forms.form(checked);
            if (shardKey == null && form.form().equals("number")) {
                // IDs in memory come at once on this thread; only a wait for the store takes a StoreWork thread.
                long[] numbers = await(caller, ids.nextIdsAsync(checked, count, storeWork.forClient(caller.client())));
                List<String> texts = new ArrayList<>(numbers.length);
                for (long id : numbers) {
                    texts.add(Long.toString(id));
                }
                return new IssuedIds(texts, numbers);
            }
            String[] texts = await(
                    caller,
                    AsyncCalls.offload(
                            () -> shardKey == null ? form.next(count) : form.next(count, shardKey),
                            storeWork.forClient(caller.client()),
                            form.form()));
            return new IssuedIds(List.of(texts), null);
        });
    }

    @Override
    public Map<String, Object> decode(Caller caller, String name, String id) {
        return serve(caller, "decode", name, null, checked -> decoded(checked, id));
    }

    @Override
    public Map<String, Object> decodeByDefaultGenerator(Caller caller, String id) {
        return serve(
                caller,
                "decode",
                IdService.DEFAULT_NAME,
                access -> access.reaches(RoutingIdService.DEFAULT_GENERATOR, this::generatorOf)
                        ? null
                        : "The client '" + access.client() + "' may use no name of the default generator",
                checked -> decoded(checked, id));
    }

    private Map<String, Object> decoded(String checked, String id) {
        IdForm form = forms.form(checked);
        if (!form.form().equals("number")) {
            try {
                return form.decode(id);
            } catch (InvalidArgumentException e) {
                throw e;
            } catch (IllegalArgumentException e) {
                throw badArgument("id", e.getMessage());
            }
        }
        long number;
        try {
            number = Long.parseLong(id);
        } catch (NumberFormatException e) {
            throw badArgument("id", "id must be a positive 64-bit decimal number, but was " + shown(id));
        }
        try {
            return ids.decode(checked, IdArguments.checkId(number)).toMap();
        } catch (InvalidArgumentException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            // Positive, but no ID this generator can have issued.
            throw badArgument("id", e.getMessage());
        }
    }

    @Override
    public Segment takeBlock(Caller caller, String name, long size, long above) {
        return serve(caller, "block", name, null, checked -> {
            if (size < 1 || size > maxBlockSize) {
                throw badArgument("size", "size must be between 1 and " + maxBlockSize + ", but was " + size);
            }
            if (above < 0 || above > HIGHEST_ID - size) {
                // An 'above' near 2^63 would move the shared counter to where neither this server's own IDs nor
                // any client's blocks fit any more.
                throw badArgument(
                        "above",
                        "above must be 0 or more, and leave room for size IDs below " + HIGHEST_ID + ", but was "
                                + above);
            }
            String generator = generatorOf(checked);
            IdService serving = generators.get(generator);
            if (!(serving instanceof SegmentIdService segments)) {
                throw new ServerRefusal(
                        Reason.NOT_FOUND,
                        null,
                        null,
                        "Blocks need a segment generator, but '" + checked + "' is served by the generator '"
                                + generator + "' with the strategy '" + serving.strategy() + "'");
            }
            IdForm form = forms.form(checked);
            if (!form.form().equals("number")) {
                // A block is plain numbers: a caller serving them would hand out IDs unlike the name's own.
                throw new ServerRefusal(
                        Reason.NOT_FOUND,
                        null,
                        null,
                        "Blocks are plain numbers, but the IDs of '" + checked + "' have the form '" + form.form()
                                + "': take them with GET /ids/" + checked);
            }
            // Every block waits for the store: on a StoreWork thread, so that a slow store holds a bounded number.
            SegmentStore store = segments.store();
            Segment taken = await(
                    caller,
                    AsyncCalls.offload(
                            () -> block(store, generator, checked, size, above),
                            storeWork.forClient(caller.client()),
                            "segment"));
            meters.block(caller.client(), checked, taken.size());
            return taken;
        });
    }

    /** One block of {@code name} from {@code store}, checked before it is handed out. */
    private Segment block(SegmentStore store, String generator, String name, long size, long above) {
        // One request must not end a name for everyone: 'above' may reach no higher than a client can hold.
        switch (ceilings.judge(name, above, store)) {
            case ALLOWED -> {}
            case LATER ->
                throw new ServerRefusal(
                        Reason.UNAVAILABLE,
                        null,
                        Duration.ofNanos(BlockCeilings.JUMP_INTERVAL_NANOS),
                        "above lies past one block over the highest ID issued for '" + name + "' ("
                                + ceilings.plainCeiling(name) + "), as after a failover to a lagging replica; such a"
                                + " floor is let through once a minute per name, and another was just now");
            case REFUSED -> {
                String detail = "above must be at most the highest ID issued for '" + name + "' plus one largest block"
                        + " and the failover jump (" + ceilings.jumpCeiling(name) + " now), but was " + above
                        + ": no client can have served IDs that high";
                if (store instanceof InterleavedSegmentStore) {
                    // Its probe read one database's counter, which may lag another's: another server may know better.
                    throw new ServerRefusal(Reason.UNAVAILABLE, null, Duration.ofSeconds(1), detail);
                }
                throw badArgument("above", detail);
            }
        }
        // One allocation, never retried here: the store returns only what it has made durable, and a repeated call
        // could only waste a range, which the caller would not know of.
        Segment block = store.allocateAbove(name, size, above);
        ceilings.issued(name, block.last());
        // A store that cannot keep a floor (Redis, dual) may answer at or below it: a caller told "above" would hand
        // those IDs out again.
        if (block.first() <= above) {
            throw new StoreUnavailableException("The segment store of '" + generator + "' answered " + block
                    + " to a request for " + size + " IDs above " + above + "; refused, not handed out");
        }
        if (block.size() > size) {
            // A leftover of an interleaved store, taken for a larger request: the caller gets what it asked for, and
            // the rest is never handed out (lost IDs, never repeated ones).
            block = new Segment(block.first(), block.first() + size - 1);
        }
        if (block.last() > HIGHEST_ID) {
            // Past the limit the segment buffer itself refuses to serve: a caller would refuse the name for good.
            throw new ServerRefusal(
                    Reason.UNAVAILABLE,
                    null,
                    null,
                    "No IDs left for '" + name + "': its store's counter passed " + HIGHEST_ID
                            + ", the highest ID a block may reach");
        }
        return block;
    }

    /**
     * Whether a caller may use a name, asked without issuing anything: for an answer that issues no ID (Tinyid's
     * {@code batchSize=0}) but must still tell a name the caller may not use.
     *
     * @param caller an authenticated caller
     * @param name a name, valid or not
     * @return whether the name is valid and the caller may use it
     */
    public boolean allows(Caller caller, String name) {
        ClientAccess access = clients.access(caller);
        return IdArguments.isName(name) && access.allows(name, generatorOf(name));
    }

    /**
     * @param caller an authenticated caller
     * @return what the caller may use: its client, its names, and the segment generators it may take blocks from
     */
    public BlockAccess blockAccess(Caller caller) {
        ClientAccess access = clients.access(caller);
        List<String> segmentGenerators = new ArrayList<>();
        generators.forEach((generator, service) -> {
            if (service instanceof SegmentIdService && access.reaches(generator, this::generatorOf)) {
                segmentGenerators.add(generator);
            }
        });
        return new BlockAccess(access.client(), access.namesShown(), List.copyOf(segmentGenerators));
    }

    /**
     * @param client the caller's client id
     * @param names the names it may use, or just {@code *}
     * @param generators the segment generators whose names it may take blocks of
     */
    public record BlockAccess(String client, List<String> names, List<String> generators) {}

    /**
     * @param forbidden the client's rights on this request: the refusal's detail, or {@code null} to let it pass;
     *     {@code null} for the rule of every name (the client may use the name)
     */
    private <T> T serve(
            Caller caller,
            String operation,
            String name,
            Function<ClientAccess, String> forbidden,
            Function<String, T> work) {
        long start = System.nanoTime();
        String nameTag = INVALID_NAME;
        String outcome = "ok";
        try {
            ClientAccess access = clients.access(caller);
            String checked = IdArguments.checkName(name);
            String refused = forbidden != null
                    ? forbidden.apply(access)
                    : access.allows(checked, generatorOf(checked))
                            ? null
                            : "The client '" + access.client() + "' may not use the name '" + checked + "'";
            if (refused != null) {
                nameTag = OTHER_NAME;
                throw new ServerRefusal(Reason.FORBIDDEN, null, null, refused);
            }
            nameTag = checked;
            Duration retryAfter = access.tryAcquire();
            if (retryAfter != null) {
                throw new ServerRefusal(
                        Reason.RATE_LIMITED,
                        null,
                        retryAfter,
                        "The client '" + access.client() + "' sent more requests than its rate limit");
            }
            if (!operation.equals("decode") && !access.admit(checked)) {
                throw new ServerRefusal(
                        Reason.TOO_MANY_NAMES,
                        null,
                        Duration.ofNanos(access.inUse().nanosUntilRelease()),
                        "The client '" + access.client() + "' has "
                                + access.inUse().max()
                                + " names in use already (idgen.server.clients." + access.client()
                                + ".max-names); a name it has not asked for in idgen.server.name-idle is released");
            }
            if (caller.waitNanos(requestTimeoutNanos, System.nanoTime()) <= 0) {
                // The caller stopped waiting while the call queued: no ID is taken for nobody.
                throw timedOut();
            }
            return work.apply(checked);
        } catch (ServerRefusal e) {
            outcome = outcome(e.reason());
            throw e;
        } catch (RuntimeException e) {
            outcome = "error";
            ServerRefusal refusal = refusal(e);
            outcome = outcome(refusal.reason());
            throw refusal;
        } finally {
            meters.request(
                    caller == null ? "unknown" : caller.client(),
                    nameTag,
                    operation,
                    caller == null ? "unknown" : caller.transport(),
                    outcome,
                    System.nanoTime() - start);
        }
    }

    /**
     * @return the work's result: at once when it is done (IDs from memory), else within the caller's deadline and the
     *     server's request timeout
     * @throws ServerRefusal UNAVAILABLE when it takes longer (the work goes on and its IDs are lost, never repeated),
     *     OVERLOADED when too many requests wait for the stores already
     */
    private <T> T await(Caller caller, CompletableFuture<T> work) {
        try {
            if (work.isDone()) {
                return work.get();
            }
            long wait = caller.waitNanos(requestTimeoutNanos, System.nanoTime());
            if (wait <= 0) {
                throw timedOut();
            }
            // The request's thread is held from here: bounded across the server and per client, whatever store.
            if (!storeWork.tryWait(caller.client())) {
                throw overloaded();
            }
            try {
                return work.get(wait, TimeUnit.NANOSECONDS);
            } finally {
                storeWork.endWait(caller.client());
            }
        } catch (TimeoutException e) {
            throw timedOut();
        } catch (ExecutionException e) {
            throw unwrapped(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ServerRefusal(Reason.UNAVAILABLE, null, null, "The server is shutting down");
        }
    }

    private ServerRefusal timedOut() {
        return new ServerRefusal(
                Reason.UNAVAILABLE,
                null,
                Duration.ofSeconds(1),
                "The ID store did not answer within the request's time (idgen.server.request-timeout "
                        + TimeUnit.NANOSECONDS.toMillis(requestTimeoutNanos)
                        + " ms, or the caller's deadline); another server may");
    }

    private static ServerRefusal overloaded() {
        return new ServerRefusal(
                Reason.OVERLOADED,
                null,
                Duration.ofSeconds(1),
                "Too many requests wait for the ID stores on this server; another server may answer");
    }

    private static RuntimeException unwrapped(Throwable cause) {
        if (cause instanceof StoreUnavailableException refused
                && refused.getCause() instanceof RejectedExecutionException) {
            return overloaded();
        }
        if (cause instanceof RuntimeException runtime) {
            return runtime;
        }
        if (cause instanceof Error error) {
            throw error;
        }
        return new IllegalStateException(cause);
    }

    /** The core's exceptions as refusals; anything else is a fault of the server and leaves as it is. */
    private static ServerRefusal refusal(RuntimeException e) {
        if (e instanceof InvalidArgumentException invalid) {
            return new ServerRefusal(Reason.BAD_ARGUMENT, invalid.argument(), null, invalid.getMessage());
        }
        if (e instanceof IllegalArgumentException) {
            return new ServerRefusal(Reason.BAD_ARGUMENT, null, null, e.getMessage());
        }
        if (e instanceof ClockBackwardsException clock) {
            Duration behind = Duration.ofMillis(Math.max(1, clock.behindMillis()));
            return new ServerRefusal(Reason.UNAVAILABLE, null, behind, e.getMessage());
        }
        if (e instanceof IdGenerationException) {
            // StoreUnavailableException among them: another server, or this one later, may answer. Its message
            // names hosts, users and SQL states: logged here under an id, not sent to the caller.
            String incident = Long.toHexString(INCIDENTS.incrementAndGet()) + "-" + Long.toHexString(STARTED);
            LOG.warn("Refused a request as unavailable (incident " + incident + ")", e);
            return new ServerRefusal(
                    Reason.UNAVAILABLE,
                    null,
                    null,
                    "The ID store cannot answer now; another server may (incident " + incident
                            + " in this server's log)");
        }
        throw e;
    }

    private static String outcome(Reason reason) {
        return reason.name().toLowerCase(Locale.ROOT);
    }

    private String generatorOf(String name) {
        return ids instanceof RoutingIdService routing ? routing.generatorOf(name) : RoutingIdService.DEFAULT_GENERATOR;
    }

    private static ServerRefusal badArgument(String parameter, String message) {
        return new ServerRefusal(Reason.BAD_ARGUMENT, parameter, null, message);
    }

    /** The value quoted, cut short: a 10,000-digit id need not come back whole. */
    private static String shown(String value) {
        return value == null ? "null" : "'" + (value.length() > 80 ? value.substring(0, 80) + "..." : value) + "'";
    }
}
