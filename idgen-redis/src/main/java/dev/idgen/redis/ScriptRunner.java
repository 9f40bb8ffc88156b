package dev.idgen.redis;

import dev.idgen.redis.RedisRoundTrips.Outcome;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;

/**
 * Runs a {@link RedisScript} by its SHA1 ({@code EVALSHA}), and only when Redis answers {@code NOSCRIPT} (first use,
 * or it restarted) sends its source once with {@code EVAL}, which Redis then caches: blocking, and without blocking
 * the caller. Apart from the executor so that this one rule, the same on both paths, reads in one place.
 */
final class ScriptRunner {

    private final ReconnectingConnection connection;
    private final BoundedCommands bounded;
    private final RedisRoundTrips roundTrips;

    ScriptRunner(ReconnectingConnection connection, BoundedCommands bounded, RedisRoundTrips roundTrips) {
        this.connection = connection;
        this.bounded = bounded;
        this.roundTrips = roundTrips;
    }

    <T> T eval(RedisScript script, ScriptOutputType type, byte[][] keys, byte[][] args) {
        long started = System.nanoTime();
        RedisClusterAsyncCommands<byte[], byte[]> commands = connection.commands();
        try {
            return bounded.await(commands.<T>evalsha(script.sha1(), type, keys, args), script.name(), started);
        } catch (RedisUnavailableException e) {
            if (!(e.getCause() instanceof RedisNoScriptException)) {
                throw e;
            }
        }
        // Redis does not know the script (first use, or it restarted): EVAL sends it once and Redis caches it.
        return bounded.await(
                commands.<T>eval(script.source().getBytes(StandardCharsets.UTF_8), type, keys, args),
                script.name(),
                System.nanoTime());
    }

    <T> CompletableFuture<T> evalAsync(RedisScript script, ScriptOutputType type, byte[][] keys, byte[][] args) {
        long started = System.nanoTime();
        RedisClusterAsyncCommands<byte[], byte[]> current = connection.cachedCommands();
        if (current != null) {
            return sendAsync(current, script, type, keys, args, started);
        }
        return connection
                .connectAsync(started)
                .thenCompose(commands -> sendAsync(commands, script, type, keys, args, started));
    }

    private <T> CompletableFuture<T> sendAsync(
            RedisClusterAsyncCommands<byte[], byte[]> commands,
            RedisScript script,
            ScriptOutputType type,
            byte[][] keys,
            byte[][] args,
            long started) {
        CompletableFuture<T> result = new CompletableFuture<>();
        RedisFuture<T> sha;
        try {
            sha = commands.evalsha(script.sha1(), type, keys, args);
        } catch (RuntimeException e) {
            result.completeExceptionally(bounded.failure(e, script.name(), started));
            return result;
        }
        bounded.bounded(sha, started).whenComplete((value, thrown) -> {
            if (thrown == null) {
                roundTrips.record(Outcome.SUCCESS, System.nanoTime() - started);
                result.complete(value);
                return;
            }
            Throwable cause = BoundedCommands.unwrap(thrown);
            if (!(cause instanceof RedisNoScriptException)) {
                result.completeExceptionally(bounded.failure(cause, script.name(), started));
                return;
            }
            // Redis does not know the script (first use, or it restarted): EVAL sends it once and Redis caches it.
            long again = System.nanoTime();
            RedisFuture<T> eval;
            try {
                eval = commands.eval(script.source().getBytes(StandardCharsets.UTF_8), type, keys, args);
            } catch (RuntimeException e) {
                result.completeExceptionally(bounded.failure(e, script.name(), again));
                return;
            }
            bounded.bounded(eval, again).whenComplete((evalValue, evalThrown) -> {
                if (evalThrown == null) {
                    roundTrips.record(Outcome.SUCCESS, System.nanoTime() - again);
                    result.complete(evalValue);
                } else {
                    result.completeExceptionally(
                            bounded.failure(BoundedCommands.unwrap(evalThrown), script.name(), again));
                }
            });
        });
        return result;
    }
}
