package dev.idgen.redis;

import dev.idgen.core.DecodedId;
import dev.idgen.core.ForgetsNames;
import dev.idgen.core.IdArguments;
import dev.idgen.core.IdService;
import dev.idgen.core.SequenceDecodedId;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Predicate;

/**
 * {@code idgen.strategy=redis}: IDs come from one script on the name's Redis counter that checks the counter's window
 * (and the master it was installed on) and takes {@code INCRBY n}. Concurrent {@link #nextId} callers of one name
 * share one script: callers that arrive while the name's round trip is in flight queue, and the next round trip takes
 * the range for all of them ({@link RedisWindowedCounter#next}); a lone caller pays one round trip, as before.
 * {@link #nextIds} takes {@code INCRBY count} in one round trip of its own. IDs of a name never repeat across every
 * instance, an ID issued to a call that started after another call returned (in any instance) is larger, and both
 * survive Redis losing its data and failovers to lagging replicas: see {@link RedisWindowedCounter}.
 */
public final class RedisIdService implements IdService, ForgetsNames {

    private final RedisWindowedCounter counter;
    /** IDs of {@link #nextIds} batches; single IDs are counted by the counter's round trips. */
    private final LongAdder batched = new LongAdder();

    public RedisIdService(RedisWindowedCounter counter) {
        this.counter = counter;
    }

    @Override
    public String strategy() {
        return "redis";
    }

    @Override
    public long nextId(String name) {
        return counter.next(IdArguments.checkName(name));
    }

    /**
     * {@inheritDoc}
     *
     * <p>Here the future completes on Lettuce's event loop when the name's round trip comes back: no thread waits for
     * it, {@code blocking} included (a new window is reserved on a thread of idgen's own; see
     * {@link RedisWindowedCounter#nextAsync}).
     */
    @Override
    public CompletableFuture<Long> nextIdAsync(String name, Executor blocking) {
        return counter.nextAsync(IdArguments.checkName(name));
    }

    /**
     * {@inheritDoc}
     *
     * <p>Here as {@link #nextIdAsync}: one {@code INCRBY count} whose answer completes the future on Lettuce's event
     * loop.
     */
    @Override
    public CompletableFuture<long[]> nextIdsAsync(String name, int count, Executor blocking) {
        IdArguments.checkName(name);
        IdArguments.checkCount(count);
        return counter.incrementAsync(name, count).thenApply(last -> {
            batched.add(count);
            return range(last, count);
        });
    }

    @Override
    public long[] nextIds(String name, int count) {
        IdArguments.checkName(name);
        IdArguments.checkCount(count);
        long last = counter.increment(name, count);
        batched.add(count);
        return range(last, count);
    }

    private static long[] range(long last, int count) {
        long[] ids = new long[count];
        for (int i = 0; i < count; i++) {
            ids[i] = last - count + 1 + i;
        }
        return ids;
    }

    /**
     * {@inheritDoc}
     *
     * <p>Only the names' in-memory state goes; their counters stay in Redis and continue where they were.
     */
    @Override
    public int forgetNames(Predicate<? super String> which) {
        return counter.forgetNames(which);
    }

    @Override
    public DecodedId decode(long id) {
        return new SequenceDecodedId(strategy(), IdArguments.checkId(id));
    }

    /**
     * @return how many IDs this service issued: counted when their round trip succeeded, so an ID taken for a call that
     *         gave up meanwhile (interrupted, cancelled) counts although it is a gap
     */
    public long generatedCount() {
        return batched.sum() + counter.coalescedCalls();
    }

    public RedisWindowedCounter counter() {
        return counter;
    }

    /** @return for example {@code counters on Redis at 127.0.0.1:6379} */
    @Override
    public String toString() {
        return "counters on " + counter.redis().describe();
    }
}
