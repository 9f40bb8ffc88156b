package dev.idgen.server;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The server's own settings, {@code idgen.server.*}: who may call it, how much one request may ask for. The IDs
 * themselves come from the starter's {@code idgen.*}. Checked at start-up by {@link IdgenServerConfiguration}: a bad
 * value fails start-up naming the property.
 */
@ConfigurationProperties("idgen.server")
public class IdgenServerProperties {

    /**
     * Let requests without a token in, as the client 'anonymous', for every name and without a rate limit. A request
     * with a token no client has is still refused. Off by default: with no clients configured and this off, the
     * server does not start.
     */
    private boolean anonymous = false;

    /**
     * The clients allowed in, by id (the 'client' tag of their meters). Each has 'token-hash' ('sha256:' and the 64
     * lower-case hex digits of printf %s "$TOKEN" | sha256sum), optionally 'names' (the names it may use, '*' for
     * all), 'generators' (the generators whose names it may use, 'default' for the default one; with names also
     * empty, every name) and 'rate-limit' (requests per second, bursts of one second's worth; 0, the default, for no
     * limit).
     */
    private Map<String, Client> clients = new LinkedHashMap<>();

    /** The most IDs one request for IDs may ask for, 1 to 10000. */
    private int maxCount = 1000;

    /**
     * The most IDs one block may hold, 1 to 1000000000 (the default). A client at the starter's defaults asks for up
     * to idgen.segment.max-step (1000000) times 32 ready blocks in one request when its callers speed up: a lower
     * limit must leave room for its clients' max-step times 32.
     */
    private long maxBlockSize = 1_000_000_000;

    /**
     * The requests that wait for a store at once, 1 to 1024; with store-queue, how many request threads a slow or
     * paused store can hold. Requests whose IDs are in memory never wait for a store, so they keep answering.
     */
    private int storeThreads = 16;

    /**
     * The requests that may wait for a store thread, 0 to 10000; past it a request is refused at once (503 with
     * Retry-After, gRPC RESOURCE_EXHAUSTED) instead of queueing.
     */
    private int storeQueue = 64;

    /**
     * How long a request waits for a store at most, from 1ms to 1m (a gRPC caller's earlier deadline shortens it);
     * then it is refused as unavailable and the IDs the store answers later are never handed out.
     */
    private Duration requestTimeout = Duration.ofSeconds(5);

    /**
     * How long a name a client has not asked for stays in its names in use (idgen.server.clients.<id>.max-names) and
     * in the server's memory, from 1s to 30d. The store's rows stay: a name asked for again goes on from where it was.
     */
    private Duration nameIdle = Duration.ofHours(1);

    /** Other ID servers' HTTP APIs, answered by this server so that their callers switch by changing a host name. */
    private Compat compat = new Compat();

    public Compat getCompat() {
        return compat;
    }

    public void setCompat(Compat compat) {
        this.compat = compat;
    }

    public Duration getNameIdle() {
        return nameIdle;
    }

    public void setNameIdle(Duration nameIdle) {
        this.nameIdle = nameIdle;
    }

    public int getStoreThreads() {
        return storeThreads;
    }

    public void setStoreThreads(int storeThreads) {
        this.storeThreads = storeThreads;
    }

    public int getStoreQueue() {
        return storeQueue;
    }

    public void setStoreQueue(int storeQueue) {
        this.storeQueue = storeQueue;
    }

    public Duration getRequestTimeout() {
        return requestTimeout;
    }

    public void setRequestTimeout(Duration requestTimeout) {
        this.requestTimeout = requestTimeout;
    }

    public boolean isAnonymous() {
        return anonymous;
    }

    public void setAnonymous(boolean anonymous) {
        this.anonymous = anonymous;
    }

    public Map<String, Client> getClients() {
        return clients;
    }

    public void setClients(Map<String, Client> clients) {
        this.clients = clients;
    }

    public int getMaxCount() {
        return maxCount;
    }

    public void setMaxCount(int maxCount) {
        this.maxCount = maxCount;
    }

    public long getMaxBlockSize() {
        return maxBlockSize;
    }

    public void setMaxBlockSize(long maxBlockSize) {
        this.maxBlockSize = maxBlockSize;
    }

    /** One client: its token and what it may use. */
    public static class Client {

        /**
         * The SHA-256 of the client's bearer token as 'sha256:' and 64 lower-case hex digits, e.g. from
         * {@code printf %s "$TOKEN" | sha256sum}. The server keeps no token itself.
         */
        private String tokenHash;

        /**
         * The sequence names the client may use; '*' for every name. With generators also empty, every name.
         */
        private List<String> names = new ArrayList<>();

        /**
         * The generators (idgen.generators.*, 'default' for the default one) whose names the client may use. With
         * names also empty, every name.
         */
        private List<String> generators = new ArrayList<>();

        /**
         * Requests per second the client may send, with bursts of one second's worth; 0 for no limit. Over it the
         * server answers 429 with Retry-After.
         */
        private double rateLimit = 0;

        /**
         * For a client allowed every name ('*', or names left empty) or every name of its generators: the most names
         * it may have in use at once, 1 to 100000. A name it has not asked for in idgen.server.name-idle is released.
         * Past it, a new name is refused with 429 (Retry-After) for this client only. Listed names always count as in
         * use.
         */
        private int maxNames = DEFAULT_MAX_NAMES;

        /** {@code max-names}' default. */
        public static final int DEFAULT_MAX_NAMES = 100;

        public int getMaxNames() {
            return maxNames;
        }

        public void setMaxNames(int maxNames) {
            this.maxNames = maxNames;
        }

        public String getTokenHash() {
            return tokenHash;
        }

        public void setTokenHash(String tokenHash) {
            this.tokenHash = tokenHash;
        }

        public List<String> getNames() {
            return names;
        }

        public void setNames(List<String> names) {
            this.names = names;
        }

        public List<String> getGenerators() {
            return generators;
        }

        public void setGenerators(List<String> generators) {
            this.generators = generators;
        }

        public double getRateLimit() {
            return rateLimit;
        }

        public void setRateLimit(double rateLimit) {
            this.rateLimit = rateLimit;
        }
    }

    /** Other ID servers' HTTP APIs (docs/server.md, "Leaf's and Tinyid's APIs"). */
    public static class Compat {

        /** Meituan Leaf's HTTP API. */
        private Leaf leaf = new Leaf();

        /** Didi Tinyid's HTTP API. */
        private Tinyid tinyid = new Tinyid();

        public Leaf getLeaf() {
            return leaf;
        }

        public void setLeaf(Leaf leaf) {
            this.leaf = leaf;
        }

        public Tinyid getTinyid() {
            return tinyid;
        }

        public void setTinyid(Tinyid tinyid) {
            this.tinyid = tinyid;
        }
    }

    /** Leaf's HTTP API: /api/segment/get/{key}, /api/snowflake/get/{key} and /decodeSnowflakeId. */
    public static class Leaf {

        /**
         * Answer Leaf's paths: GET /api/segment/get/{key} (one ID of the name key), GET /api/snowflake/get/{key} and
         * GET /decodeSnowflakeId, as Leaf 1.0.1 answers them. They take bearer tokens as the rest of the server does,
         * unless tokenless-names lists names.
         */
        private boolean enabled = false;

        /**
         * Serve /api/snowflake/get/{key} and /decodeSnowflakeId, from the generator snowflake-generator names. Off,
         * both answer 404.
         */
        private boolean snowflakeEnabled = true;

        /**
         * The Snowflake generator behind /api/snowflake/get/{key}: a generator of idgen.generators.*, or 'default'.
         * Leaf ignores the key, and so does this server: every such request is authorized, rate-limited and counted
         * as a request for the name equal to the generator's name (e.g. 'snow'), whatever the key. Required while
         * snowflake-enabled is true.
         */
        private String snowflakeGenerator;

        /**
         * Names that requests on Leaf's paths without an Authorization header may use, as the client
         * 'leaf-tokenless' (its own meters, its own rate limit): Leaf's callers send no token. Listed one by one, no
         * '*', at most 100000. Empty, the default: Leaf's paths need a bearer token. Anyone who can reach the server
         * can then use up these names' IDs: see docs/server.md. Never applies to idgen's own paths (/ids, /blocks).
         */
        private List<String> tokenlessNames = new ArrayList<>();

        /**
         * Requests per second the client 'leaf-tokenless' may send in all, with bursts of one second's worth; 0 for no
         * limit. Over it Leaf's paths answer 429 with Retry-After.
         */
        private double tokenlessRateLimit = 1000;

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public boolean isSnowflakeEnabled() {
            return snowflakeEnabled;
        }

        public void setSnowflakeEnabled(boolean snowflakeEnabled) {
            this.snowflakeEnabled = snowflakeEnabled;
        }

        public String getSnowflakeGenerator() {
            return snowflakeGenerator;
        }

        public void setSnowflakeGenerator(String snowflakeGenerator) {
            this.snowflakeGenerator = snowflakeGenerator;
        }

        public List<String> getTokenlessNames() {
            return tokenlessNames;
        }

        public void setTokenlessNames(List<String> tokenlessNames) {
            this.tokenlessNames = tokenlessNames;
        }

        public double getTokenlessRateLimit() {
            return tokenlessRateLimit;
        }

        public void setTokenlessRateLimit(double tokenlessRateLimit) {
            this.tokenlessRateLimit = tokenlessRateLimit;
        }
    }

    /** Tinyid's HTTP API: /tinyid/id/nextId, nextIdSimple, nextSegmentId and nextSegmentIdSimple. */
    public static class Tinyid {

        /**
         * Answer Tinyid's paths under /tinyid/id/, as Tinyid answers them. Their 'token' parameter is the client's
         * token: give each Tinyid caller a client whose token-hash is the SHA-256 of its Tinyid token and whose names
         * are its biz types.
         */
        private boolean enabled = false;

        /**
         * How many IDs one segment of nextSegmentId and nextSegmentIdSimple holds (Tinyid's step), 1 to
         * idgen.server.max-block-size: each is a block taken from the name's segment store, never handed out twice.
         */
        private long segmentSize = 1000;

        /**
         * Also accept the tokens of Tinyid's own token table (tiny_id_token, on the server's DataSource), each for the
         * biz types its rows list, read at start-up and again every minute as Tinyid does; unset (the default) reads
         * none. Those requests are the client 'tinyid-tokens' in the meters. The table holds its tokens in plain text:
         * keep it as closed as the tokens.
         */
        private String tokenTable;

        public String getTokenTable() {
            return tokenTable;
        }

        public void setTokenTable(String tokenTable) {
            this.tokenTable = tokenTable;
        }

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public long getSegmentSize() {
            return segmentSize;
        }

        public void setSegmentSize(long segmentSize) {
            this.segmentSize = segmentSize;
        }
    }
}
