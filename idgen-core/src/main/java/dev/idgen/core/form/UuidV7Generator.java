package dev.idgen.core.form;

import dev.idgen.core.ClockBackwardsException;
import dev.idgen.core.IdGenerationException;
import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.LayoutExhaustedException;
import dev.idgen.core.TimeSource;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/**
 * RFC 9562 version 7 UUIDs: time-ordered, for a database's {@code uuid} or {@code BINARY(16)} key.
 *
 * <pre>
 *  bits   0-47   unix_ts_ms   milliseconds since 1970, big-endian
 *        48-51   ver          0111
 *        52-63   rand_a       counter bits 41-30
 *        64-65   var          10
 *        66-95   rand_b       counter bits 29-0
 *       96-127   rand_b       random, new for every UUID
 * </pre>
 *
 * <p>Monotonic per generator, by RFC 9562 section 6.2 method 1 (a fixed-length dedicated counter): a 42-bit counter,
 * the longest the RFC allows, sits right after the timestamp; each new millisecond seeds it at random with its top bit
 * clear, so at least 2^41 UUIDs fit in a millisecond, and each UUID of the same millisecond counts it up by one. So
 * every UUID a generator issues is greater (by {@link UUID#toString()}, by its bytes, and by PostgreSQL's
 * {@code uuid} order) than the ones before it:
 * <ul>
 * <li>a clock that steps back leaves the timestamp where it was and the counter counts on;</li>
 * <li>a counter used up borrows the next millisecond, at most 1000 ms ahead of the
 * clock; there {@link #next()} waits for the clock to move on, or throws {@link ClockBackwardsException} when the
 * clock is more than 10 ms short of that (it stepped back), until the clock catches up.</li>
 * </ul>
 *
 * <p>Across generators and processes, uniqueness rests on the random bits: a seed of 41 bits and 32 bits per UUID.
 * All random bits come from one cryptographic source, read in blocks (see the builder); the counter makes a UUID's
 * successors in the same millisecond guessable up to their 32 random bits, so a UUIDv7 is no secret token.
 *
 * <p>Thread-safe: {@link #next()} takes the generator's lock and allocates only the returned UUID.
 */
public final class UuidV7Generator {

    /** The form's name. */
    public static final String FORM = "uuid-v7";

    /** The counter's width: 12 bits in rand_a and the top 30 of rand_b, RFC 9562's upper bound. */
    static final int COUNTER_BITS = 42;

    private static final long MAX_MILLIS = (1L << 48) - 1;

    private static final long VERSION = 0x7000L;

    private static final long VARIANT = 0x8000_0000_0000_0000L;

    private final Object lock = new Object();

    private final TimeSource timeSource;

    private final RandomBuffer random;

    private final MillisCounter clock;

    /** rand_b's counter bits ({@code counterBits - 12}) and random bits below them. */
    private final int counterBitsInB;

    private final int randomBits;

    private UuidV7Generator(Builder builder, SecureRandom random) {
        this.timeSource = builder.timeSource;
        this.random = new RandomBuffer(random);
        this.clock = new MillisCounter("UUIDv7", builder.counterBits, MAX_MILLIS, this.random);
        this.counterBitsInB = builder.counterBits - 12;
        this.randomBits = 62 - counterBitsInB;
    }

    /**
     * @return a builder with the system clock and random bits from a new DRBG
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The next UUID.
     *
     * @return a version 7 UUID, greater than every UUID this generator issued before
     * @throws ClockBackwardsException when the millisecond's counter is used up and the clock is so far behind that
     *         borrowing the next millisecond would run more than a second ahead of it (a caller that has used up the
     *         counter a second ahead of a clock that moves on waits for it instead, a millisecond or so)
     * @throws LayoutExhaustedException after the year 10889, when 48 bits no longer hold the milliseconds
     * @throws IdGenerationException when the clock reads before 1970, the clock stalls for a second while this call
     *         waits for it, or the caller is interrupted while waiting
     */
    public UUID next() {
        for (; ; ) {
            long resume;
            synchronized (lock) {
                if (clock.advance(timeSource.currentTimeMillis())) {
                    long counter = clock.counter();
                    long msb = clock.millis() << 16 | VERSION | counter >>> counterBitsInB;
                    // The default layout leaves 32 random bits, half a long: drawing only those halves the random
                    // source's share of the call.
                    long bits = randomBits <= Integer.SIZE
                            ? (long) random.nextInt() << 32 >>> (64 - randomBits)
                            : random.nextLong() >>> (64 - randomBits);
                    long lsb = VARIANT | (counter & ((1L << counterBitsInB) - 1)) << randomBits | bits;
                    return new UUID(msb, lsb);
                }
                resume = clock.resumeMillis();
            }
            MillisCounter.awaitClock(timeSource, resume, "UUIDv7");
        }
    }

    /**
     * What a version 7 UUID carries.
     *
     * @param id a version 7 UUID, from any generator
     * @return {@code timestamp} (an {@link Instant}) and {@code version} (7), in an unmodifiable, ordered map
     * @throws InvalidArgumentException naming {@code id} when it is null or not an RFC 9562 version 7 UUID
     */
    public static Map<String, Object> decode(UUID id) {
        Map<String, Object> map = new LinkedHashMap<>();
        putParts(map, id);
        return Collections.unmodifiableMap(map);
    }

    /**
     * @param id a UUID
     * @return its 32 hex digits, lowercase, without the dashes: the compact form some key columns hold (MyBatis-Plus's
     *         {@code ASSIGN_UUID}, {@code CHAR(32)})
     */
    public static String compactHex(UUID id) {
        byte[] digits = new byte[32];
        Forms.writeHex(digits, 0, id.getMostSignificantBits(), 16);
        Forms.writeHex(digits, 16, id.getLeastSignificantBits(), 16);
        return Forms.latin1(digits);
    }

    /**
     * This generator's UUIDs as the {@value #FORM} form: the canonical string is {@link UUID#toString()}, lowercase;
     * decode reads a strict 36-character string (either case) and checks the version and variant.
     *
     * @param generator the generator's name
     * @return the form, decoding to {@code form}, {@code timestamp} and {@code version}
     */
    public IdForm form(String generator) {
        return new GeneratorForm(generator, FORM, () -> next().toString(), text -> {
            Map<String, Object> map = new LinkedHashMap<>();
            map.put("form", FORM);
            putParts(map, Forms.parseUuid(text, FORM));
            return Collections.unmodifiableMap(map);
        });
    }

    @Override
    public String toString() {
        return "UuidV7Generator[" + timeSource + "]";
    }

    private static void putParts(Map<String, Object> map, UUID id) {
        if (id == null) {
            throw Forms.invalidId(null, "id must be a version 7 UUID, but was null");
        }
        if (id.version() != 7 || id.variant() != 2) {
            throw Forms.invalidId(
                    id.toString(),
                    "id must be an RFC 9562 version 7 UUID, but " + id + " has version " + id.version()
                            + " and variant " + id.variant() + " (a UUIDv7 has version 7 and variant 2)");
        }
        map.put("timestamp", Instant.ofEpochMilli(id.getMostSignificantBits() >>> 16));
        map.put("version", 7);
    }

    /**
     * Builds a {@link UuidV7Generator}.
     */
    public static final class Builder {

        private TimeSource timeSource = TimeSource.system();

        private SecureRandom random;

        private int counterBits = COUNTER_BITS;

        private Builder() {}

        /**
         * @param timeSource the clock; the system clock by default
         * @return this builder
         */
        public Builder timeSource(TimeSource timeSource) {
            this.timeSource = timeSource;
            return this;
        }

        /**
         * @param random the one source of the random bits, used by this generator alone and never reseeded by it;
         *        the generator reads 64 KiB at a time from it. By default the AES-256 counter-mode keystream, keyed for
         *        every 4 MiB with fresh bytes from a new {@code SecureRandom.getInstance("DRBG")} (see
         *        {@code RandomBuffer}).
         * @return this builder
         */
        public Builder random(SecureRandom random) {
            this.random = random;
            return this;
        }

        /** For tests: a narrower counter runs out after fewer UUIDs. RFC 9562 allows 12 to 42 bits. */
        Builder counterBits(int counterBits) {
            this.counterBits = counterBits;
            return this;
        }

        /**
         * @return the generator
         * @throws InvalidArgumentException naming {@code timeSource} when it is missing
         */
        public UuidV7Generator build() {
            if (timeSource == null) {
                throw new InvalidArgumentException("timeSource", null, "timeSource must be set");
            }
            if (counterBits < 12 || counterBits > COUNTER_BITS) {
                throw new InvalidArgumentException(
                        "counterBits",
                        counterBits,
                        "counterBits must be between 12 and " + COUNTER_BITS + ", but was " + counterBits);
            }
            return new UuidV7Generator(this, random);
        }
    }
}
