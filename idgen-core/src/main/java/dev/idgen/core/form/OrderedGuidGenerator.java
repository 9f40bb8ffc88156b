package dev.idgen.core.form;

import dev.idgen.core.ClockBackwardsException;
import dev.idgen.core.IdGenerationException;
import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.LayoutExhaustedException;
import dev.idgen.core.TimeSource;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/**
 * Time-ordered GUIDs ("COMB" GUIDs) for a clustered index: each GUID sorts after the ones before it in the database's
 * own order, so inserts append to the index instead of splitting pages all over it. They are RFC 9562 version 8
 * (custom) UUIDs: 48 bits of Unix milliseconds, a 14-bit counter and 60 random bits, placed where the database
 * compares first.
 *
 * <p><b>SQL Server ({@link Order#SQL_SERVER}, the default): time goes last.</b> SQL Server does not compare a
 * {@code uniqueidentifier} from its first byte. It compares it as .NET's {@code SqlGuid} does: over the .NET byte array
 * of the GUID, whose first three groups are little-endian, in the index order 10, 11, 12, 13, 14, 15, 8, 9, 6, 7, 4,
 * 5, 0, 1, 2, 3. The last group of the string is compared first, left to right, then the fourth; the first three
 * groups, which hold the time in a UUIDv7, come last. So a UUIDv7 in SQL Server lands all over the index, and this
 * generator puts the time in the last group and the counter in the fourth instead:
 *
 * <table>
 * <caption>Where {@link Order#SQL_SERVER} puts what, for the string {@code aabbccdd-eeff-gghh-iijj-kkllmmnnoopp}
 * </caption>
 * <tr><th>string characters</th><th>.NET byte index</th><th>SQL Server compares it</th><th>the generator puts there
 * </th></tr>
 * <tr><td>{@code kk ll mm nn oo pp} (24-35)</td><td>10, 11, 12, 13, 14, 15</td><td>1st to 6th</td><td>Unix
 * milliseconds, 48 bits big-endian</td></tr>
 * <tr><td>{@code ii} (19-20)</td><td>8</td><td>7th</td><td>variant {@code 10}, counter bits 13-8</td></tr>
 * <tr><td>{@code jj} (21-22)</td><td>9</td><td>8th</td><td>counter bits 7-0</td></tr>
 * <tr><td>{@code hh} (16-17)</td><td>6</td><td>9th</td><td>random</td></tr>
 * <tr><td>{@code gg} (14-15)</td><td>7</td><td>10th</td><td>version {@code 8}, then 4 random bits</td></tr>
 * <tr><td>{@code ff} (11-12)</td><td>4</td><td>11th</td><td>random</td></tr>
 * <tr><td>{@code ee} (9-10)</td><td>5</td><td>12th</td><td>random</td></tr>
 * <tr><td>{@code dd} (6-7)</td><td>0</td><td>13th</td><td>random</td></tr>
 * <tr><td>{@code cc} (4-5)</td><td>1</td><td>14th</td><td>random</td></tr>
 * <tr><td>{@code bb} (2-3)</td><td>2</td><td>15th</td><td>random</td></tr>
 * <tr><td>{@code aa} (0-1)</td><td>3</td><td>16th</td><td>random</td></tr>
 * </table>
 *
 * <p>{@link #sqlServerOrder()} is that comparison in Java. Neither the string order nor {@link UUID#compareTo} is:
 * only the database's order matters, and it differs from both.
 *
 * <p><b>Bytes left to right ({@link Order#BYTES}).</b> MySQL and MariaDB {@code BINARY(16)} and PostgreSQL's
 * {@code uuid} compare the 16 bytes in string order, so this order has UUIDv7's layout with version 8: the
 * milliseconds in bytes 0-5, the version, the counter's top 12 bits, the variant, its 2 low bits, then 60 random
 * bits. (Store the bytes as they are: MySQL's {@code UUID_TO_BIN(id, 1)} swaps groups for version 1 UUIDs and would
 * break the order.)
 *
 * <p><b>Counter.</b> Within a millisecond the 14-bit counter counts up from a random start with its top bit clear, so
 * at least 8,192 GUIDs fit in a millisecond; after that the next millisecond is borrowed, at most
 * 1000 ms ahead of the clock, and a clock that steps back leaves the timestamp where
 * it was while the counter counts on. At that limit {@link #next()} waits for the clock to move on (one thread can
 * outrun 8,192 GUIDs per millisecond: the rate then settles at the counter's capacity), or, when the clock is more
 * than 10 ms short of it (it stepped back), throws {@link ClockBackwardsException}. Across
 * processes, uniqueness rests on the 60 random bits (and the counter's random start).
 *
 * <p>Thread-safe: {@link #next()} takes the generator's lock and allocates only the returned UUID.
 */
public final class OrderedGuidGenerator {

    /** The form's name. */
    public static final String FORM = "guid";

    /** Which bytes a database compares first, and so where the time goes. */
    public enum Order {
        /** SQL Server's {@code uniqueidentifier}: time in the last group, the counter in the fourth. */
        SQL_SERVER,
        /** Byte by byte from the first (MySQL/MariaDB {@code BINARY(16)}, PostgreSQL {@code uuid}): time first. */
        BYTES
    }

    static final int COUNTER_BITS = 14;

    private static final long MAX_MILLIS = (1L << 48) - 1;

    private static final long VERSION = 0x8000L;

    private static final long VARIANT = 0x8000_0000_0000_0000L;

    /** The .NET byte indexes in the order {@code SqlGuid} compares them. */
    private static final int[] SQL_SERVER_COMPARE_ORDER = {10, 11, 12, 13, 14, 15, 8, 9, 6, 7, 4, 5, 0, 1, 2, 3};

    private static final Comparator<UUID> SQL_SERVER_ORDER = OrderedGuidGenerator::compareAsSqlServer;

    private final Object lock = new Object();

    private final Order order;

    private final TimeSource timeSource;

    private final RandomBuffer random;

    private final MillisCounter clock;

    private OrderedGuidGenerator(Builder builder, SecureRandom random) {
        this.order = builder.order;
        this.timeSource = builder.timeSource;
        this.random = new RandomBuffer(random);
        this.clock = new MillisCounter("ordered GUID", COUNTER_BITS, MAX_MILLIS, this.random);
    }

    /**
     * @return a builder for {@link Order#SQL_SERVER}, with the system clock and random bits from a new DRBG
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The next GUID.
     *
     * @return a version 8 UUID that sorts, in this generator's {@link Order}, after every GUID it issued before
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
                    long millis = clock.millis();
                    long counter = clock.counter();
                    long bits = random.nextLong();
                    if (order == Order.SQL_SERVER) {
                        return new UUID(bits & ~0xF000L | VERSION, VARIANT | counter << 48 | millis);
                    }
                    return new UUID(millis << 16 | VERSION | counter >>> 2, VARIANT | (counter & 3) << 60 | bits >>> 4);
                }
                resume = clock.resumeMillis();
            }
            MillisCounter.awaitClock(timeSource, resume, "ordered GUID");
        }
    }

    /**
     * @return the order this generator's GUIDs increase in
     */
    public Order order() {
        return order;
    }

    /**
     * What a GUID of this generator carries.
     *
     * @param id a GUID issued in {@code order}
     * @param order the order it was issued in; the GUID itself does not tell
     * @return {@code timestamp} (an {@link Instant}) and {@code order} (the {@link Order}'s name), in an unmodifiable,
     *         ordered map
     * @throws InvalidArgumentException naming {@code id} when it is null or not an RFC 9562 version 8 UUID
     */
    public static Map<String, Object> decode(UUID id, Order order) {
        Map<String, Object> map = new LinkedHashMap<>();
        putParts(map, id, order);
        return Collections.unmodifiableMap(map);
    }

    /**
     * SQL Server's order of {@code uniqueidentifier} values, exactly as .NET's {@code SqlGuid} compares them: each
     * UUID as the .NET byte array (the first three groups little-endian), its bytes compared unsigned in the index
     * order 10, 11, 12, 13, 14, 15, 8, 9, 6, 7, 4, 5, 0, 1, 2, 3. Allocates nothing.
     *
     * @return the comparator; it does not accept {@code null}
     */
    public static Comparator<UUID> sqlServerOrder() {
        return SQL_SERVER_ORDER;
    }

    /**
     * This generator's GUIDs as the {@value #FORM} form: the canonical string is {@link UUID#toString()}, lowercase;
     * decode reads a strict 36-character string (either case, as SQL Server shows them in uppercase) and checks the
     * version and variant.
     *
     * @param generator the generator's name
     * @return the form, decoding to {@code form}, {@code timestamp} and {@code order}
     */
    public IdForm form(String generator) {
        return new GeneratorForm(generator, FORM, () -> next().toString(), text -> {
            Map<String, Object> map = new LinkedHashMap<>();
            map.put("form", FORM);
            putParts(map, Forms.parseUuid(text, FORM), order);
            return Collections.unmodifiableMap(map);
        });
    }

    @Override
    public String toString() {
        return "OrderedGuidGenerator[" + order + ", " + timeSource + "]";
    }

    private static void putParts(Map<String, Object> map, UUID id, Order order) {
        if (id == null) {
            throw Forms.invalidId(null, "id must be an ordered GUID, but was null");
        }
        if (order == null) {
            throw new InvalidArgumentException("order", null, "order must be set");
        }
        if (id.version() != 8 || id.variant() != 2) {
            throw Forms.invalidId(
                    id.toString(),
                    "id must be an ordered GUID, an RFC 9562 version 8 UUID, but " + id + " has version " + id.version()
                            + " and variant " + id.variant());
        }
        long millis = order == Order.SQL_SERVER
                ? id.getLeastSignificantBits() & MAX_MILLIS
                : id.getMostSignificantBits() >>> 16;
        map.put("timestamp", Instant.ofEpochMilli(millis));
        map.put("order", order.name());
    }

    private static int compareAsSqlServer(UUID a, UUID b) {
        for (int index : SQL_SERVER_COMPARE_ORDER) {
            int x = dotNetByte(a, index);
            int y = dotNetByte(b, index);
            if (x != y) {
                return x < y ? -1 : 1;
            }
        }
        return 0;
    }

    /**
     * Byte {@code index} of the UUID's .NET byte array ({@code Guid.ToByteArray()}), unsigned: indexes 0-3, 4-5 and
     * 6-7 are the first three groups of the string, each reversed; 8-15 are the last two groups as written.
     */
    static int dotNetByte(UUID id, int index) {
        int position = index < 4 ? 3 - index : index < 6 ? 9 - index : index < 8 ? 13 - index : index;
        long half = position < 8 ? id.getMostSignificantBits() : id.getLeastSignificantBits();
        return (int) (half >>> (56 - 8 * (position & 7))) & 0xFF;
    }

    /**
     * Builds an {@link OrderedGuidGenerator}.
     */
    public static final class Builder {

        private Order order = Order.SQL_SERVER;

        private TimeSource timeSource = TimeSource.system();

        private SecureRandom random;

        private Builder() {}

        /**
         * @param order where the time goes: {@link Order#SQL_SERVER} (the default) or {@link Order#BYTES}
         * @return this builder
         */
        public Builder order(Order order) {
            this.order = order;
            return this;
        }

        /**
         * @param timeSource the clock; the system clock by default
         * @return this builder
         */
        public Builder timeSource(TimeSource timeSource) {
            this.timeSource = timeSource;
            return this;
        }

        /**
         * @param random the one source of the random bits, never reseeded by the generator, which reads 64 KiB at
         *        a time from it; by default the AES-256 counter-mode keystream, keyed for every 4 MiB with fresh
         *        bytes from a new {@code SecureRandom.getInstance("DRBG")} (see {@code RandomBuffer})
         * @return this builder
         */
        public Builder random(SecureRandom random) {
            this.random = random;
            return this;
        }

        /**
         * @return the generator
         * @throws InvalidArgumentException naming {@code order} or {@code timeSource} when it is missing
         */
        public OrderedGuidGenerator build() {
            if (order == null) {
                throw new InvalidArgumentException("order", null, "order must be set");
            }
            if (timeSource == null) {
                throw new InvalidArgumentException("timeSource", null, "timeSource must be set");
            }
            return new OrderedGuidGenerator(this, random);
        }
    }
}
