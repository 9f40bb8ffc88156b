package dev.idgen.core.snowflake;

import dev.idgen.core.InvalidArgumentException;
import java.time.Instant;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The Snowflake layouts other libraries run, each with its own epoch, so that idgen can read their IDs and switch a
 * fleet from them without a repeat: decode an ID ({@link #decode(long)}), bound the IDs the library can have issued by
 * a given time ({@link #maxIdIssuedBy(Instant)}), and, where idgen's generator can produce the layout itself, keep it
 * ({@link #layout()}).
 *
 * <p>Each constant is the library's default, as its published source has it. A deployment that changed its library's
 * epoch or bit lengths is not one of these: give idgen its layout field by field instead.
 */
public enum SnowflakePreset {

    /**
     * Twitter's Snowflake: 41 bits of milliseconds since 1288834974657 (2010-11-04T01:42:54.657Z), 10 worker bits,
     * 12 sequence bits. Hutool's and MyBatis-Plus's {@code Snowflake} (their 5-bit data centre and 5-bit worker are
     * the top and bottom halves of the 10 worker bits) and Meituan Leaf's snowflake mode use it unchanged.
     */
    TWITTER(1288834974657L, 1, 41, 10, 12, false, 0),

    /** Hutool's {@code cn.hutool.core.lang.Snowflake}: {@link #TWITTER}'s layout and epoch. */
    HUTOOL(1288834974657L, 1, 41, 10, 12, false, 0),

    /** MyBatis-Plus's {@code com.baomidou.mybatisplus.core.toolkit.Sequence}: {@link #TWITTER}'s layout and epoch. */
    MYBATIS_PLUS(1288834974657L, 1, 41, 10, 12, false, 0),

    /** Meituan Leaf's snowflake mode: {@link #TWITTER}'s layout and epoch. */
    LEAF(1288834974657L, 1, 41, 10, 12, false, 0),

    /**
     * CosId's {@code MillisecondSnowflakeId}: 41 bits of milliseconds since CosId's epoch 1577203200000
     * (2019-12-24T16:00:00Z, midnight of 2019-12-25 in UTC+8), 10 machine bits, 12 sequence bits.
     */
    COSID(1577203200000L, 1, 41, 10, 12, false, 0),

    /**
     * Baidu uid-generator's {@code DefaultUidGenerator}: 28 bits of seconds since 2016-05-20, 22 worker bits, 13
     * sequence bits. Its epoch is midnight of 2016-05-20 in the host's time zone: this preset takes UTC+8
     * (2016-05-19T16:00:00Z), where the library's users run. Its 28 bits of seconds ran out on 2024-11-20 at 13:24:16
     * UTC: the layout cannot be kept, only left. {@code CachedUidGenerator} fills a ring buffer ahead of time: its IDs
     * can be up to the buffer's seconds ahead of the clock.
     */
    UID_GENERATOR(1463673600000L, 1000, 28, 22, 13, false, 0),

    /**
     * Sonyflake: 39 bits of 10-millisecond units since 2014-09-01T00:00:00Z, then 8 sequence bits, then 16 machine
     * bits (the machine id is the lowest part, not the middle one). idgen's generator cannot produce this order:
     * Sonyflake's fleets switch above its highest ID. This is the default of {@code github.com/sony/sonyflake} (v1);
     * v2 is {@link #SONYFLAKE_V2}.
     */
    SONYFLAKE(1409529600000L, 10, 39, 16, 8, true, 0),

    /**
     * Sonyflake v2 ({@code github.com/sony/sonyflake/v2}) at its defaults: {@link #SONYFLAKE}'s bits and 10 ms ticks,
     * counted from 2025-01-01T00:00:00Z when no start time is set. Decode only, as for v1.
     */
    SONYFLAKE_V2(1735689600000L, 10, 39, 16, 8, true, 0),

    /**
     * yitter's IdGenerator (its Java {@code com.github.yitter:yitter-idgenerator}) at its defaults: milliseconds since
     * 1582136402000 (2020-02-20 02:20:02 in UTC+8) in the 51 bits above 6 worker bits and 6 sequence bits, sequences 0
     * to 4 reserved. Its default method borrows future milliseconds when a millisecond's sequences run out, up to
     * 2,000 of them: its IDs can be up to 2 seconds ahead of the clock.
     */
    YITTER(1582136402000L, 1, 51, 6, 6, false, 2000);

    private final long epochMillis;
    private final long tickMillis;
    private final int timestampBits;
    private final int workerBits;
    private final int sequenceBits;
    private final boolean sequenceAboveWorker;
    private final long aheadTicks;

    SnowflakePreset(
            long epochMillis,
            long tickMillis,
            int timestampBits,
            int workerBits,
            int sequenceBits,
            boolean sequenceAboveWorker,
            long aheadTicks) {
        this.epochMillis = epochMillis;
        this.tickMillis = tickMillis;
        this.timestampBits = timestampBits;
        this.workerBits = workerBits;
        this.sequenceBits = sequenceBits;
        this.sequenceAboveWorker = sequenceAboveWorker;
        this.aheadTicks = aheadTicks;
    }

    /**
     * Reads a preset's name as people write it: {@code hutool}, {@code mybatis-plus}, {@code MYBATIS_PLUS},
     * {@code uid-generator}, any case.
     *
     * @param text the name
     * @return the preset
     * @throws InvalidArgumentException naming {@code preset} and listing the known names when none matches
     */
    public static SnowflakePreset parse(String text) {
        if (text != null) {
            String key = text.trim().toUpperCase(Locale.ROOT).replace('-', '_');
            for (SnowflakePreset preset : values()) {
                if (preset.name().equals(key)) {
                    return preset;
                }
            }
        }
        throw new InvalidArgumentException(
                "preset", text, "preset must be one of " + knownNames() + ", but was '" + text + "'");
    }

    /**
     * @return the presets' names as {@link #parse(String)} reads them, comma-separated
     */
    public static String knownNames() {
        return Arrays.stream(values()).map(SnowflakePreset::key).collect(Collectors.joining(", "));
    }

    /**
     * @return the name as properties and the command line write it, e.g. {@code mybatis-plus}
     */
    public String key() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** @return the instant the library counts its ticks from */
    public Instant epoch() {
        return Instant.ofEpochMilli(epochMillis);
    }

    /** @return the length of one tick in milliseconds: 1, 10 (Sonyflake) or 1000 (uid-generator) */
    public long tickMillis() {
        return tickMillis;
    }

    /** @return the bits of the tick count */
    public int timestampBits() {
        return timestampBits;
    }

    /** @return the bits of the worker (machine) id */
    public int workerBits() {
        return workerBits;
    }

    /** @return the bits of the sequence within a tick */
    public int sequenceBits() {
        return sequenceBits;
    }

    /** @return the largest worker id the layout holds */
    public long maxWorkerId() {
        return (1L << workerBits) - 1;
    }

    /**
     * @return how many ticks ahead of its clock the library can issue IDs (yitter borrows up to 2,000 milliseconds),
     *     0 for libraries that wait for the clock
     */
    public long aheadTicks() {
        return aheadTicks;
    }

    /** @return the first instant the layout can no longer represent: {@code epoch + 2^timestampBits ticks} */
    public Instant exhaustedAt() {
        return Instant.ofEpochMilli(epochMillis + (1L << timestampBits) * tickMillis);
    }

    /**
     * idgen's own layout for this preset, where idgen's generator can produce it: the order timestamp, worker,
     * sequence, in milliseconds or seconds. Sonyflake's order and 10-millisecond tick it cannot.
     *
     * @return the layout, or empty for {@link #SONYFLAKE} and {@link #SONYFLAKE_V2}
     */
    public Optional<SnowflakeLayout> layout() {
        if (sequenceAboveWorker) {
            return Optional.empty();
        }
        TickUnit unit = switch ((int) tickMillis) {
            case 1 -> TickUnit.MILLISECONDS;
            case 1000 -> TickUnit.SECONDS;
            default -> null;
        };
        if (unit == null) {
            return Optional.empty();
        }
        return Optional.of(SnowflakeLayout.builder()
                .epoch(epoch())
                .tickUnit(unit)
                .timestampBits(timestampBits)
                .workerBits(workerBits)
                .sequenceBits(sequenceBits)
                .build());
    }

    /**
     * Splits an ID made by this library into its parts.
     *
     * @param id the ID
     * @return its time (the start of its tick), worker id and sequence
     * @throws InvalidArgumentException naming {@code id} when it is negative
     */
    public SnowflakeDecodedId decode(long id) {
        if (id < 0) {
            throw new InvalidArgumentException("id", id, "a " + key() + " ID is never negative, but was " + id);
        }
        long worker;
        long sequence;
        if (sequenceAboveWorker) {
            worker = id & maxWorkerId();
            sequence = (id >>> workerBits) & ((1L << sequenceBits) - 1);
        } else {
            sequence = id & ((1L << sequenceBits) - 1);
            worker = (id >>> sequenceBits) & maxWorkerId();
        }
        long ticks = id >>> (workerBits + sequenceBits);
        return new SnowflakeDecodedId(id, Instant.ofEpochMilli(epochMillis + ticks * tickMillis), worker, sequence);
    }

    /**
     * The highest ID this library can have issued at or before {@code time}, on any worker: every ID of the tick
     * {@code time} falls in, plus the ticks it may run ahead ({@link #aheadTicks()}). A fleet that keeps issuing stays
     * below {@code maxIdIssuedBy(t)} at every later {@code t}: the bound a switch above it is checked against, whatever
     * a table's {@code MAX} read a moment ago said.
     *
     * @param time the time, by the library's hosts' clocks
     * @return the bound, {@link Long#MAX_VALUE} once the layout is exhausted
     */
    public long maxIdIssuedBy(Instant time) {
        long ticks = Math.floorDiv(time.toEpochMilli() - epochMillis, tickMillis) + aheadTicks;
        if (ticks < 0) {
            return -1;
        }
        int low = workerBits + sequenceBits;
        if (ticks + 1 >= (1L << timestampBits)) {
            return Long.MAX_VALUE;
        }
        return ((ticks + 1) << low) - 1;
    }
}
