package dev.idgen.redis;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A Lua script run with {@code EVALSHA} (falling back to {@code EVAL} when Redis does not know it yet, for example
 * after a restart). Redis runs a script alone, start to end: that is the atomicity every idgen script relies on.
 *
 * @param name a name for error messages
 * @param source the Lua source
 * @param sha1 its SHA-1, as {@code EVALSHA} wants it
 */
record RedisScript(String name, String source, String sha1) {

    /**
     * The Lua that every script checking for a failover starts with: {@code replication}, the node's {@code INFO
     * replication}, and {@code replid}, its {@code master_replid}, which Redis changes on every promotion and restart.
     * A Redis that does not let scripts read it (an ACL without {@code +info}, a proxy) gets a clear error rather
     * than a script that cannot tell a lagging copy.
     */
    static final String REPLICATION = """
            local replication = redis.call('INFO', 'replication')
            local replid = string.match(replication, 'master_replid:(%w+)')
            if not replid then return redis.error_reply('idgen needs INFO replication (master_replid) in scripts') end
            """;

    static RedisScript of(String name, String source) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-1").digest(source.getBytes(StandardCharsets.UTF_8));
            return new RedisScript(name, source, HexFormat.of().formatHex(digest));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
