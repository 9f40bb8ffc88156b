package dev.idgen.redis;

import dev.idgen.core.spi.WorkerIdLeaseStore;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

/**
 * Worker id leases in one Redis hash, {@code prefix{workers}}: per worker id its owner ({@code o:<id>}), expiry
 * ({@code e:<id>}, Redis server time in ms), last used timestamp ({@code t:<id>}), the lease's ttl ({@code l:<id>},
 * 0 once released) and how it was granted ({@code g:<id>}: the previous ttl its acquisition answered, 0 free). Every
 * operation is one Lua script, so allocation is atomic, and expiry is judged by the Redis
 * server's clock alone. That clock may step, and make a live lease look expired: so an id taken from a lease that
 * lapsed unreleased is granted as taken over, with its ttl, and its new owner waits that ttl plus the reuse delay by
 * its own monotonic clock before it issues (see {@link Acquisition}). Ids never leased, or released, are granted free.
 * An owner's own unexpired lease, given back when it asks again, is granted as {@code g:} recorded it was the first
 * time: a lost take-over given back free would skip the wait for the holder it was taken from.
 * A hash written before {@code l:} existed reports an unknown ttl (the new owner assumes its own), and one written
 * before {@code g:} existed gives a lease back as taken over with an unknown ttl.
 *
 * <p>A Redis without persistence forgets every lease when it restarts, while the holders keep generating. So the hash
 * records when the Redis server started ({@code born}, from {@code INFO server}'s uptime) and, until {@code ttl +
 * reuseDelay} after that, hands out no worker id to newcomers: only holders whose lease is still valid by their own
 * clock take theirs back on their next renewal. Any holder that does not renew within a ttl has stopped itself by
 * then, so afterwards the ids nobody took back are free.
 *
 * <p><b>Failover.</b> A replica promoted after a failover may have missed the last acquisitions and renewals, so its
 * copy of the hash can show a held id as free. The hash also records the replication id of the master that wrote it
 * ({@code replid}, from {@code INFO replication}; a promoted replica takes a new one). When a script finds the hash
 * written under another replication id, it treats the hash as unverified and waits as after a restart, one ttl
 * longer: newcomers get nothing until {@code 2 ttl + reuseDelay} after the failover was seen. The extra ttl covers a
 * holder whose renewal the old master still accepted after the promotion (it accepts one only while the holder's
 * lease there had not expired, so at most a ttl after the promotion), and which then holds its id for another ttl.
 * A hash found missing on a node that was promoted at some time (it has a second replication id) gets the same wait,
 * since the node cannot tell when. Assumptions: the hash is lost only together with a restart or a failover (deleting
 * it by hand on a running Redis skips the wait); and a master cut off from the sentinels but not from some holders
 * (a real network partition, not a crash or a pause) stops taking writes, which Redis does with
 * {@code min-replicas-to-write 1}; without it such a master could renew a holder's lease for as long as the
 * partition lasts.
 *
 * <p><b>A script that runs twice.</b> Lettuce resends a command whose answer was lost with the connection, after it
 * reconnects, possibly to a node that restarted empty or to a promoted replica. Each script is harmless the second
 * time: a second {@link #ACQUIRE} on the same dataset finds the first run's lease, the owner's and unexpired, and gives
 * that one back (extended by a ttl, granted as the first run granted it) rather than a second id, as it does for an owner that asks again
 * after its acquisition timed out: see {@link WorkerIdLeaseStore#acquire}. The owner is unique per process (instance
 * id plus nonce), so a lease in its name could only come from its own acquisition or renewal: nobody else held the id
 * in between, the owner issued nothing under it while it acquired, and the generator keeps its IDs increasing across
 * a lease on the same id. On a node that restarted empty or was promoted it meets the warm-up above, like any
 * acquisition there. A second {@link #RENEW}
 * extends the same owner's lease again from the node's clock, later than the holder's own reckoning (the holder stops
 * earlier than the hash says, the safe side); it renews nothing another owner took, since it checks the owner and the
 * expiry. A second {@link #RELEASE} sets the expiry to now again, only while the owner still holds the id.
 */
public final class RedisWorkerIdLeaseStore implements WorkerIdLeaseStore {

    private static final String NOW = """
            local time = redis.call('TIME')
            local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
            local function fmt(x) return string.format('%.0f', x) end
            """;

    // born(ttl): when this dataset may have lost leases (the server's start, or a failover seen now plus a ttl), kept
    // in the hash with the replication id of the master that wrote it. Follows RedisScript.REPLICATION and NOW.
    private static final String BORN = """
            local function born(ttl)
              local promoted = string.match(replication, 'second_repl_offset:(-?%d+)') ~= '-1'
              local b = redis.call('HGET', KEYS[1], 'born')
              local writtenUnder = redis.call('HGET', KEYS[1], 'replid')
              if b and (writtenUnder == replid or (not writtenUnder and not promoted)) then
                if not writtenUnder then redis.call('HSET', KEYS[1], 'replid', replid) end
                return tonumber(b)
              end
              if b or promoted then
                b = now + ttl
              else
                local uptime = tonumber(string.match(redis.call('INFO', 'server'), 'uptime_in_seconds:(%d+)'))
                b = now - uptime * 1000
              end
              redis.call('HSET', KEYS[1], 'born', fmt(b), 'replid', replid)
              return b
            end
            """;

    // ARGV: owner, maxWorkerId, ttl ms, reuse delay ms -> {workerId or -1, last timestamp or -1, retry after ms,
    // previous ttl: 0 free (never leased, or released), -1 unknown, else the ttl of the lapsed lease it was taken over
    // from; for the owner's own unexpired lease, what its grant answered ('g:', -1 when not recorded)}
    static final RedisScript ACQUIRE =
            RedisScript.of("idgen-lease-acquire", RedisScript.REPLICATION + NOW + BORN + """
            local ttl = tonumber(ARGV[3])
            local delay = tonumber(ARGV[4])
            local warm = born(ttl) + ttl + delay
            if now < warm then return {-1, -1, warm - now, 0} end
            local free
            for id = 0, tonumber(ARGV[2]) do
              local expires = redis.call('HGET', KEYS[1], 'e:' .. id)
              if expires and tonumber(expires) > now and redis.call('HGET', KEYS[1], 'o:' .. id) == ARGV[1] then
                redis.call('HSET', KEYS[1], 'e:' .. id, fmt(now + ttl), 'l:' .. id, fmt(ttl))
                local last = redis.call('HGET', KEYS[1], 't:' .. id)
                local grant = redis.call('HGET', KEYS[1], 'g:' .. id)
                return {id, tonumber(last or '-1'), 0, tonumber(grant or '-1')}
              end
              if not free and (not expires or tonumber(expires) + delay <= now) then free = id end
            end
            if free then
              -- Taken over (the lapsed lease's ttl, -1 unknown) unless never leased or released ('l:' is 0).
              local previous = 0
              if redis.call('HEXISTS', KEYS[1], 'e:' .. free) == 1 then
                previous = tonumber(redis.call('HGET', KEYS[1], 'l:' .. free) or '-1')
              end
              redis.call('HSET', KEYS[1], 'o:' .. free, ARGV[1], 'e:' .. free, fmt(now + ttl), 'l:' .. free, fmt(ttl),
                'g:' .. free, fmt(previous))
              local last = redis.call('HGET', KEYS[1], 't:' .. free)
              return {free, tonumber(last or '-1'), 0, previous}
            end
            return {-1, -1, 0, 0}
            """);

    // ARGV: workerId, owner, ttl ms, reuse delay ms, last timestamp, held validly (1/0) -> 1 held, 0 refused.
    // Only a holder still valid by its own clock renews, and only a lease that has not expired or been released: an
    // expired one may be handed on by now. A missing owner means the hash was lost with a restart: such a holder takes
    // its id back (newcomers wait out the warm-up meanwhile).
    static final RedisScript RENEW = RedisScript.of("idgen-lease-renew", RedisScript.REPLICATION + NOW + BORN + """
            if ARGV[6] ~= '1' then return 0 end
            local id = ARGV[1]
            local ttl = tonumber(ARGV[3])
            born(ttl)
            local owner = redis.call('HGET', KEYS[1], 'o:' .. id)
            if owner then
              if owner ~= ARGV[2] then return 0 end
              local expires = redis.call('HGET', KEYS[1], 'e:' .. id)
              if not expires or tonumber(expires) <= now then return 0 end
            end
            local last = tonumber(redis.call('HGET', KEYS[1], 't:' .. id) or '-1')
            if tonumber(ARGV[5]) > last then last = tonumber(ARGV[5]) end
            redis.call('HSET', KEYS[1], 'o:' .. id, ARGV[2], 'e:' .. id, fmt(now + ttl), 't:' .. id, fmt(last),
              'l:' .. id, fmt(ttl))
            return 1
            """);

    // ARGV: workerId, owner, last timestamp -> 1 released, 0 not the owner
    static final RedisScript RELEASE = RedisScript.of("idgen-lease-release", NOW + """
            local id = ARGV[1]
            if redis.call('HGET', KEYS[1], 'o:' .. id) ~= ARGV[2] then return 0 end
            local last = tonumber(redis.call('HGET', KEYS[1], 't:' .. id) or '-1')
            if tonumber(ARGV[3]) > last then last = tonumber(ARGV[3]) end
            redis.call('HSET', KEYS[1], 'e:' .. id, fmt(now), 't:' .. id, fmt(last), 'l:' .. id, '0')
            return 1
            """);

    private final RedisScriptExecutor redis;
    private final byte[][] key;
    private final String keyName;

    /**
     * @param redis runs the scripts
     * @param prefix the key prefix, see {@link RedisKeys#checkPrefix}
     */
    public RedisWorkerIdLeaseStore(RedisScriptExecutor redis, String prefix) {
        this.redis = redis;
        this.keyName = RedisKeys.checkPrefix(prefix) + "{workers}";
        this.key = new byte[][] {keyName.getBytes(StandardCharsets.UTF_8)};
    }

    @Override
    public Acquisition acquire(String owner, long maxWorkerId, Duration ttl, Duration reuseDelay) {
        List<Object> result = redis.evalList(
                ACQUIRE, key, bytes(owner), bytes(maxWorkerId), bytes(ttl.toMillis()), bytes(reuseDelay.toMillis()));
        long workerId = ((Number) result.get(0)).longValue();
        if (workerId < 0) {
            return Acquisition.none(((Number) result.get(2)).longValue());
        }
        long last = ((Number) result.get(1)).longValue();
        long previousTtl = ((Number) result.get(3)).longValue();
        return previousTtl == 0
                ? Acquisition.grantedFree(workerId, last)
                : Acquisition.grantedTakenOver(workerId, last, previousTtl);
    }

    @Override
    public boolean renew(
            long workerId, String owner, Duration ttl, Duration reuseDelay, long lastTimestamp, boolean heldValidly) {
        return redis.evalLong(
                        RENEW,
                        key,
                        bytes(workerId),
                        bytes(owner),
                        bytes(ttl.toMillis()),
                        bytes(reuseDelay.toMillis()),
                        bytes(lastTimestamp),
                        bytes(heldValidly ? 1 : 0))
                == 1;
    }

    @Override
    public void release(long workerId, String owner, long lastTimestamp) {
        redis.evalLong(RELEASE, key, bytes(workerId), bytes(owner), bytes(lastTimestamp));
    }

    @Override
    public String toString() {
        return "RedisWorkerIdLeaseStore[" + redis.describe() + ", key=" + keyName + "]";
    }

    private static byte[] bytes(String value) {
        return value.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] bytes(long value) {
        return Long.toString(value).getBytes(StandardCharsets.US_ASCII);
    }
}
