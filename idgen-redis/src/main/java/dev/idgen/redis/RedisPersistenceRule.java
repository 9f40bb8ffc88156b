package dev.idgen.redis;

import java.util.Map;
import java.util.function.Supplier;

/**
 * The rule {@link RedisWindowedCounter#verifyPersistence()} applies to each master's persistence settings: a Redis may
 * run without persistence ({@code save ""}, {@code appendonly no}: idgen then continues from the database) or with
 * {@code appendonly yes} and {@code appendfsync always}; anything else could bring back, after a restart, counters
 * older than the IDs already handed out. A class of its own because the rule is pure: it judges the answers of
 * {@code CONFIG GET}, and can be tested on every combination without a Redis.
 */
final class RedisPersistenceRule {

    private RedisPersistenceRule() {}

    /**
     * @param byNode per master, its {@code appendonly}, {@code appendfsync} and {@code save}, as
     *        {@link RedisScriptExecutor#config} answers
     * @param where where Redis is, for the message ({@link RedisScriptExecutor#describe()})
     * @throws IllegalStateException naming what to change, for the first master whose settings are unsafe
     */
    static void requireSafe(Map<String, Map<String, String>> byNode, Supplier<String> where) {
        for (Map.Entry<String, Map<String, String>> node : byNode.entrySet()) {
            Map<String, String> config = node.getValue();
            boolean aof = "yes".equalsIgnoreCase(config.get("appendonly"));
            String save = config.getOrDefault("save", "").trim();
            boolean safe = aof ? "always".equalsIgnoreCase(config.get("appendfsync")) : save.isEmpty();
            if (!safe) {
                throw new IllegalStateException(where.get()
                        + (byNode.size() > 1 ? ", master " + node.getKey() + "," : "")
                        + " could come back after a restart with counters older than the IDs it already"
                        + " handed out (appendonly=" + config.get("appendonly") + ", appendfsync="
                        + config.get("appendfsync") + ", save='" + save + "'), and idgen would repeat them. Run it"
                        + " without persistence (save \"\", appendonly no: idgen then continues from the database) or"
                        + " with appendonly yes and appendfsync always; or, if you accept the risk, set"
                        + " idgen.redis.verify-persistence=false");
            }
        }
    }
}
