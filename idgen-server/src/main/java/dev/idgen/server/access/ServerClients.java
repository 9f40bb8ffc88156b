package dev.idgen.server.access;

import dev.idgen.core.IdArguments;
import dev.idgen.core.InvalidArgumentException;
import dev.idgen.server.Caller;
import dev.idgen.server.IdgenServerProperties;
import dev.idgen.server.ServerRefusal;
import dev.idgen.spring.boot.autoconfigure.diagnostics.IdgenPropertyValueException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The configured clients, found by their token: the SHA-256 of the presented token is looked up in a map (no scan of
 * every client), then compared with the configured digest in constant time. Built once at start-up, where every
 * client's settings are checked; read-only afterwards.
 */
public final class ServerClients {

    private static final String PREFIX = "idgen.server.clients.";

    private static final String SHA256 = "sha256:";

    private static final Pattern TOKEN_HASH = Pattern.compile("sha256:[0-9a-f]{64}");

    private static final String BEARER = "Bearer ";

    private final boolean anonymous;

    /** Keyed by the digest's bytes ({@link ByteBuffer} compares by content), so a request formats no hex. */
    private final Map<ByteBuffer, Known> byDigest;

    /** The largest {@code idgen.server.clients.<id>.max-names}. */
    static final int MAX_NAMES = 100_000;

    /** The lowest rate limit other than none: one request in 1,000 seconds. */
    static final double MIN_RATE = 0.001;

    /**
     * One digest per thread: {@code MessageDigest.getInstance} looks the provider up on every call, which a request
     * on the hot path need not pay.
     */
    private static final ThreadLocal<MessageDigest> SHA_256 = ThreadLocal.withInitial(ServerClients::newSha256);

    /** By the client's id. */
    private final Map<String, ClientAccess> byId;

    /** Requests on Leaf's paths without a token, or {@code null} when they need one. */
    private final Caller leafTokenless;

    private static final String TOKENLESS_NAMES = "idgen.server.compat.leaf.tokenless-names";

    private record Known(byte[] digest, ClientAccess access) {}

    /**
     * @param properties {@code idgen.server.*}
     * @param generatorNames every generator's name, {@code default} included
     * @param clock the rate limits' clock
     * @throws IdgenPropertyValueException naming the property when a client's setting is invalid, or when no client
     *     is configured and anonymous access is off
     */
    public ServerClients(IdgenServerProperties properties, Set<String> generatorNames, NanoClock clock) {
        if (properties.getClients().isEmpty() && !properties.isAnonymous()) {
            throw new IdgenPropertyValueException(
                    "idgen.server.clients",
                    "(none)",
                    "no client is configured and idgen.server.anonymous is false: the server would let nobody in,"
                            + " and an unprotected ID server is not a default",
                    "Configure at least one client under idgen.server.clients.<id>.token-hash (the SHA-256 of its"
                            + " token: printf %s \"$TOKEN\" | sha256sum), or set idgen.server.anonymous=true to let"
                            + " requests without a token in.");
        }
        Duration idle = properties.getNameIdle();
        if (idle == null || idle.compareTo(Duration.ofSeconds(1)) < 0 || idle.compareTo(Duration.ofDays(30)) > 0) {
            throw new IdgenPropertyValueException(
                    "idgen.server.name-idle",
                    idle,
                    "must be from 1s to 30d",
                    "Set how long a name a client has not asked for stays in memory, e.g. 1h.");
        }
        this.anonymous = properties.isAnonymous();
        Map<ByteBuffer, Known> digests = new HashMap<>();
        Map<String, ClientAccess> ids = new HashMap<>();
        properties.getClients().forEach((id, client) -> {
            if (Caller.LEAF_TOKENLESS.equals(id)) {
                // Its rights would be taken for those of Leaf's requests without a token.
                throw new IdgenPropertyValueException(
                        PREFIX + id,
                        id,
                        "'" + Caller.LEAF_TOKENLESS + "' is the client of Leaf's requests without a token",
                        "Give the client another id; " + TOKENLESS_NAMES + " lists the names those requests may use.");
            }
            if (Caller.TINYID_TOKENS.equals(id)) {
                throw new IdgenPropertyValueException(
                        PREFIX + id,
                        id,
                        "'" + Caller.TINYID_TOKENS + "' is the client of the tokens in Tinyid's token table",
                        "Give the client another id.");
            }
            if (Caller.ANONYMOUS.equals(id)) {
                // Its rights would be taken for those of requests without a token.
                throw new IdgenPropertyValueException(
                        PREFIX + id,
                        id,
                        "'" + Caller.ANONYMOUS + "' is the client of requests without a token",
                        "Give the client another id; idgen.server.anonymous=true lets requests without a token in.");
            }
            String hex = tokenHash(id, client.getTokenHash());
            ClientAccess access = access(id, client, generatorNames, clock, properties.getNameIdle());
            byte[] digest = HexFormat.of().parseHex(hex);
            if (digests.putIfAbsent(ByteBuffer.wrap(digest), new Known(digest, access)) != null) {
                throw invalid(
                        id,
                        "token-hash",
                        client.getTokenHash(),
                        "another client has the same token",
                        "Give every client a token of its own.");
            }
            ids.put(id, access);
        });
        if (anonymous) {
            ids.putIfAbsent(
                    Caller.ANONYMOUS,
                    ClientAccess.unlimited(
                            Caller.ANONYMOUS,
                            new ClientNames(
                                    IdgenServerProperties.Client.DEFAULT_MAX_NAMES,
                                    properties.getNameIdle().toNanos(),
                                    clock)));
        }
        IdgenServerProperties.Tinyid tinyid = properties.getCompat().getTinyid();
        if (tinyid.isEnabled() && tinyid.getTokenTable() != null) {
            // Which biz types a token may use is TinyidTokens' check, before the request reaches the service.
            ids.put(
                    Caller.TINYID_TOKENS,
                    ClientAccess.unlimited(
                            Caller.TINYID_TOKENS,
                            new ClientNames(MAX_NAMES, properties.getNameIdle().toNanos(), clock)));
        }
        IdgenServerProperties.Leaf leaf = properties.getCompat().getLeaf();
        ClientAccess tokenless = leafTokenless(leaf, clock);
        if (leaf.isEnabled() && tokenless != null) {
            ids.put(Caller.LEAF_TOKENLESS, tokenless);
            this.leafTokenless = new Caller(Caller.LEAF_TOKENLESS, "http");
        } else {
            this.leafTokenless = null;
        }
        this.byDigest = Collections.unmodifiableMap(digests);
        this.byId = Collections.unmodifiableMap(ids);
    }

    /**
     * @param authorization {@code Bearer <token>}, or {@code null}
     * @param transport {@code http} or {@code grpc}
     * @return the client the token belongs to, or {@link Caller#ANONYMOUS} without a token when anonymous access is on
     * @throws ServerRefusal UNAUTHENTICATED otherwise
     */
    public Caller authenticate(String authorization, String transport) {
        if (authorization == null || authorization.isBlank()) {
            if (anonymous) {
                return new Caller(Caller.ANONYMOUS, transport);
            }
            throw unauthenticated("This server needs a token: send the header 'Authorization: Bearer <token>'");
        }
        if (!authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            throw unauthenticated("Only bearer tokens are accepted: send 'Authorization: Bearer <token>'");
        }
        byte[] digest = sha256(authorization.substring(BEARER.length()).trim());
        Known known = byDigest.get(ByteBuffer.wrap(digest));
        // The map found a candidate by its digest; the constant-time comparison is what lets the caller in.
        if (known == null || !MessageDigest.isEqual(known.digest(), digest)) {
            throw unauthenticated("The bearer token belongs to no client of this server");
        }
        return new Caller(known.access().client(), transport);
    }

    /**
     * @return the caller of a request on Leaf's paths without a token: the client {@value Caller#LEAF_TOKENLESS} when
     *     idgen.server.compat.leaf.tokenless-names lists names, else {@code null} (such a request needs a token)
     */
    public Caller leafTokenless() {
        return leafTokenless;
    }

    /**
     * The rights of Leaf's requests without a token, checked whether or not Leaf's API is on: its listed names only,
     * never every name, and its own rate limit.
     *
     * @return {@code null} when no names are listed
     */
    private static ClientAccess leafTokenless(IdgenServerProperties.Leaf leaf, NanoClock clock) {
        List<String> listed = leaf.getTokenlessNames() == null ? List.of() : leaf.getTokenlessNames();
        if (listed.size() > MAX_NAMES) {
            throw new IdgenPropertyValueException(
                    TOKENLESS_NAMES,
                    listed.size() + " names",
                    "may list at most " + MAX_NAMES + " names",
                    "List only the names Leaf's callers without a token use.");
        }
        Set<String> names = new LinkedHashSet<>();
        for (String name : listed) {
            if (ClientAccess.EVERY_NAME.equals(name)) {
                throw new IdgenPropertyValueException(
                        TOKENLESS_NAMES,
                        name,
                        "'*' would let anyone who reaches the server use up the IDs of every name without a token",
                        "List the names Leaf's callers without a token use, one by one.");
            }
            try {
                names.add(IdArguments.checkName(name));
            } catch (InvalidArgumentException e) {
                throw new IdgenPropertyValueException(
                        TOKENLESS_NAMES, name, e.getMessage(), "List valid sequence names, one by one.");
            }
        }
        double rate = leaf.getTokenlessRateLimit();
        if (!(rate == 0 || rate >= MIN_RATE) || Double.isInfinite(rate)) {
            throw new IdgenPropertyValueException(
                    "idgen.server.compat.leaf.tokenless-rate-limit",
                    rate,
                    "must be 0 (no limit) or from " + MIN_RATE + " requests per second",
                    "Set a rate of 0, or of " + MIN_RATE + " or more.");
        }
        if (names.isEmpty()) {
            return null;
        }
        return new ClientAccess(
                Caller.LEAF_TOKENLESS,
                Collections.unmodifiableSet(names),
                Set.of(),
                false,
                rate == 0 ? null : new RateLimiter(rate, clock),
                null);
    }

    /**
     * Releases the names each client has not asked for in the idle time.
     *
     * @return the names released that no client has in use any more
     */
    public List<String> releaseIdleNames() {
        List<String> released = new ArrayList<>();
        byId.values().forEach(access -> {
            if (access.inUse() != null) {
                released.addAll(access.inUse().releaseIdle());
            }
        });
        released.removeIf(name -> byId.values().stream()
                .anyMatch(access -> access.names().contains(name)
                        || access.inUse() != null && access.inUse().holds(name)));
        return released;
    }

    /**
     * @param caller an authenticated caller
     * @return what it may do
     * @throws ServerRefusal UNAUTHENTICATED when no such client is configured (any more)
     */
    public ClientAccess access(Caller caller) {
        ClientAccess access = caller == null ? null : byId.get(caller.client());
        if (access == null) {
            throw unauthenticated("No client of this server is called " + (caller == null ? null : caller.client()));
        }
        return access;
    }

    private static ServerRefusal unauthenticated(String message) {
        return new ServerRefusal(ServerRefusal.Reason.UNAUTHENTICATED, null, null, message);
    }

    private static String tokenHash(String id, String tokenHash) {
        if (tokenHash == null || !TOKEN_HASH.matcher(tokenHash).matches()) {
            throw invalid(
                    id,
                    "token-hash",
                    tokenHash,
                    "must be 'sha256:' and 64 lower-case hex digits",
                    "Set it to the SHA-256 of the client's token: echo \"sha256:$(printf %s \"$TOKEN\" | sha256sum"
                            + " | cut -d' ' -f1)\"");
        }
        return tokenHash.substring(SHA256.length());
    }

    private static ClientAccess access(
            String id,
            IdgenServerProperties.Client client,
            Set<String> generatorNames,
            NanoClock clock,
            Duration nameIdle) {
        Set<String> names = new LinkedHashSet<>();
        boolean everyName = client.getNames().contains(ClientAccess.EVERY_NAME);
        for (String name : client.getNames()) {
            if (!ClientAccess.EVERY_NAME.equals(name)) {
                try {
                    names.add(IdArguments.checkName(name));
                } catch (InvalidArgumentException e) {
                    throw invalid(id, "names", name, e.getMessage(), "List valid sequence names, or '*'.");
                }
            }
        }
        for (String generator : client.getGenerators()) {
            if (!generatorNames.contains(generator)) {
                throw invalid(
                        id,
                        "generators",
                        generator,
                        "no generator is called '" + generator + "'",
                        "Use one of " + generatorNames + " ('default' is the default generator; the others are"
                                + " configured under idgen.generators.<name>).");
            }
        }
        double rate = client.getRateLimit();
        // Below one request in 1,000 s the token bucket's interval would overflow into no limit at all.
        if (!(rate == 0 || rate >= MIN_RATE) || Double.isInfinite(rate)) {
            throw invalid(
                    id,
                    "rate-limit",
                    rate,
                    "must be 0 (no limit) or from " + MIN_RATE + " requests per second",
                    "Set a rate of 0, or of " + MIN_RATE + " or more.");
        }
        everyName |= names.isEmpty() && client.getGenerators().isEmpty();
        int maxNames = client.getMaxNames();
        if (maxNames < 1 || maxNames > MAX_NAMES) {
            throw invalid(
                    id,
                    "max-names",
                    maxNames,
                    "must be between 1 and " + MAX_NAMES,
                    "Set how many names the client may have in use at once, from 1 to " + MAX_NAMES + ".");
        }
        boolean open = everyName || !client.getGenerators().isEmpty();
        return new ClientAccess(
                id,
                Collections.unmodifiableSet(names),
                Set.copyOf(client.getGenerators()),
                everyName,
                rate == 0 ? null : new RateLimiter(rate, clock),
                open ? new ClientNames(maxNames, nameIdle.toNanos(), clock) : null);
    }

    private static IdgenPropertyValueException invalid(
            String id, String property, Object value, String reason, String action) {
        return new IdgenPropertyValueException(PREFIX + id + "." + property, value, reason, action);
    }

    /** @return the SHA-256 of the token's UTF-8 bytes */
    static byte[] sha256(String token) {
        // digest() resets the instance, so the thread's next request starts clean.
        return SHA_256.get().digest(token.getBytes(StandardCharsets.UTF_8));
    }

    private static MessageDigest newSha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("Every JDK has SHA-256", e);
        }
    }
}
