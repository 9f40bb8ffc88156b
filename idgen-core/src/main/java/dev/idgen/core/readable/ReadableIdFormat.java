package dev.idgen.core.readable;

import dev.idgen.core.InvalidArgumentException;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;

/**
 * The readable ID format, such as {@code 250314093015123ORD04200017}: {@code yyMMddHHmmssSSS} of the instant the ID
 * was issued at, in {@link #zone()}; then a business code, 0 to {@value #MAX_BIZ_CODE_LENGTH} characters of
 * {@code [A-Za-z0-9]}; then the bucket, zero-padded to the digits of {@code buckets - 1}; then the sequence,
 * zero-padded to the digits of {@code maxSequence}. Every part but the business code has a fixed width, so
 * {@link #parse} finds the business code from the length. The years 2000 to 2099 can be written.
 *
 * <p>Two different {@code (epochMilli, bucket, sequence)} give two different IDs as long as the zone never sets its
 * clocks back, which the constructor checks: an hour repeated would write two milliseconds alike. Every service that
 * shares IDs must use the same buckets, {@code maxSequence} and zone.
 *
 * <p>Thread-safe. {@link #format} allocates only the ID's bytes and its string: the date part of the last second
 * formatted is kept and reused.
 */
public final class ReadableIdFormat {

    /** The width of the time part, {@code yyMMddHHmmssSSS}. */
    public static final int TIME_DIGITS = 15;

    /** The longest business code. */
    public static final int MAX_BIZ_CODE_LENGTH = 4;

    /** The smallest {@code maxSequence} accepted (one digit). */
    public static final long MIN_MAX_SEQUENCE = 9;

    /** The largest {@code maxSequence} accepted (eight digits). */
    public static final long MAX_MAX_SEQUENCE = 99_999_999;

    private static final int FIRST_YEAR = 2000;
    private static final int END_YEAR = 2100;

    // Local years 2000 to 2099 start at the earliest 18 hours before 2000-01-01T00:00Z and end at the latest 18 hours
    // after 2100-01-01T00:00Z (offsets are at most 18 hours).
    private static final Instant FIRST_INSTANT = Instant.parse("1999-12-31T06:00:00Z");
    private static final Instant END_INSTANT = Instant.parse("2100-01-01T18:00:00Z");

    /** The parts of a readable ID. */
    public record Parts(String id, Instant timestamp, String bizCode, int bucket, long sequence) {}

    /** The seconds part of the time part, {@code yyMMddHHmmss}, of one second. */
    private record Second(long epochSecond, byte[] digits) {}

    private final int buckets;
    private final long maxSequence;
    private final ZoneId zone;
    private final ZoneRules rules;
    private final int bucketDigits;
    private final int sequenceDigits;
    private final int fixedLength;
    /** The first millisecond of local 2000 and the first of local 2100 in the zone. */
    private final long firstMillis;

    private final long endMillis;
    // Most IDs of a second share its yyMMddHHmmss: formatting it once per second (per zone offset, which can only
    // change at a whole second) keeps the date arithmetic off the hot path.
    private volatile Second lastSecond;

    /**
     * @param buckets how many buckets the IDs come from, at least 1; the digits of {@code buckets - 1} are the width
     *        of the bucket part
     * @param maxSequence the largest sequence, from {@value #MIN_MAX_SEQUENCE} to {@value #MAX_MAX_SEQUENCE}; its
     *        digits are the width of the sequence part
     * @param zone the zone of the time part; it must not set its clocks back between 2000 and 2099
     * @throws InvalidArgumentException naming the argument that breaks its rule
     */
    public ReadableIdFormat(int buckets, long maxSequence, ZoneId zone) {
        if (buckets < 1) {
            throw new InvalidArgumentException("buckets", buckets, "buckets must be at least 1, but was " + buckets);
        }
        if (maxSequence < MIN_MAX_SEQUENCE || maxSequence > MAX_MAX_SEQUENCE) {
            throw new InvalidArgumentException(
                    "maxSequence",
                    maxSequence,
                    "maxSequence must be between " + MIN_MAX_SEQUENCE + " and " + MAX_MAX_SEQUENCE + ", but was "
                            + maxSequence);
        }
        this.zone = checkZone(zone);
        this.rules = zone.getRules();
        this.buckets = buckets;
        this.maxSequence = maxSequence;
        this.bucketDigits = digits(buckets - 1);
        this.sequenceDigits = digits(maxSequence);
        this.fixedLength = TIME_DIGITS + bucketDigits + sequenceDigits;
        this.firstMillis =
                LocalDate.of(FIRST_YEAR, 1, 1).atStartOfDay(zone).toInstant().toEpochMilli();
        this.endMillis =
                LocalDate.of(END_YEAR, 1, 1).atStartOfDay(zone).toInstant().toEpochMilli();
    }

    /**
     * @param epochMilli when the ID is issued, in the years 2000 to 2099 of the zone
     * @param bizCode 0 to {@value #MAX_BIZ_CODE_LENGTH} characters of {@code [A-Za-z0-9]}
     * @param bucket from 0 to {@code buckets - 1}
     * @param sequence from 0 to {@code maxSequence}
     * @return the readable ID
     * @throws InvalidArgumentException naming the argument that breaks its rule
     */
    public String format(long epochMilli, String bizCode, int bucket, long sequence) {
        checkBizCode(bizCode);
        if (epochMilli < firstMillis || epochMilli >= endMillis) {
            throw new InvalidArgumentException(
                    "epochMilli",
                    epochMilli,
                    "epochMilli must lie in the years "
                            + FIRST_YEAR + " to " + (END_YEAR - 1) + " of " + zone + ", but was "
                            + Instant.ofEpochMilli(epochMilli));
        }
        if (bucket < 0 || bucket >= buckets) {
            throw new InvalidArgumentException(
                    "bucket", bucket, "bucket must be between 0 and " + (buckets - 1) + ", but was " + bucket);
        }
        if (sequence < 0 || sequence > maxSequence) {
            throw new InvalidArgumentException(
                    "sequence", sequence, "sequence must be between 0 and " + maxSequence + ", but was " + sequence);
        }
        int bizLength = bizCode.length();
        byte[] out = new byte[fixedLength + bizLength];
        long epochSecond = Math.floorDiv(epochMilli, 1000);
        Second second = lastSecond;
        if (second == null || second.epochSecond() != epochSecond) {
            second = second(epochSecond);
            lastSecond = second;
        }
        System.arraycopy(second.digits(), 0, out, 0, 12);
        writeDigits(out, 12, 3, Math.floorMod(epochMilli, 1000));
        for (int i = 0; i < bizLength; i++) {
            out[TIME_DIGITS + i] = (byte) bizCode.charAt(i);
        }
        writeDigits(out, TIME_DIGITS + bizLength, bucketDigits, bucket);
        writeDigits(out, TIME_DIGITS + bizLength + bucketDigits, sequenceDigits, sequence);
        // Every byte is ASCII: the Latin-1 constructor copies them into a compact string without decoding.
        return new String(out, StandardCharsets.ISO_8859_1);
    }

    /**
     * @param id a readable ID of this format
     * @return its parts
     * @throws InvalidArgumentException naming {@code id} when it is {@code null}, has the wrong length, a non-digit
     *         where digits belong, a business code character outside {@code [A-Za-z0-9]}, an impossible date or a
     *         local time the zone skips, a bucket of {@code buckets} or more, or a sequence above {@code maxSequence}
     */
    public Parts parse(String id) {
        if (id == null) {
            throw invalidId(null, "it is null");
        }
        int bizLength = id.length() - fixedLength;
        if (bizLength < 0 || bizLength > MAX_BIZ_CODE_LENGTH) {
            throw invalidId(id, "it has " + id.length() + " characters");
        }
        long time = parseDigits(id, 0, TIME_DIGITS);
        int bucketStart = TIME_DIGITS + bizLength;
        long bucket = parseDigits(id, bucketStart, bucketStart + bucketDigits);
        long sequence = parseDigits(id, bucketStart + bucketDigits, id.length());
        if (time < 0 || bucket < 0 || sequence < 0) {
            throw invalidId(id, "a non-digit stands where digits belong");
        }
        String bizCode = id.substring(TIME_DIGITS, bucketStart);
        if (!isBizCode(bizCode)) {
            throw invalidId(id, "its business code '" + bizCode + "' is not of [A-Za-z0-9]");
        }
        if (bucket >= buckets) {
            throw invalidId(id, "its bucket " + bucket + " is not below " + buckets);
        }
        if (sequence > maxSequence) {
            throw invalidId(id, "its sequence " + sequence + " is above " + maxSequence);
        }
        LocalDateTime local;
        try {
            local = LocalDateTime.of(
                    FIRST_YEAR + (int) (time / 10_000_000_000_000L),
                    (int) (time / 100_000_000_000L % 100),
                    (int) (time / 1_000_000_000 % 100),
                    (int) (time / 10_000_000 % 100),
                    (int) (time / 100_000 % 100),
                    (int) (time / 1000 % 100),
                    (int) (time % 1000) * 1_000_000);
        } catch (DateTimeException e) {
            throw invalidId(id, "its time part " + id.substring(0, TIME_DIGITS) + " is not a date and time");
        }
        // A transition here is a gap, a local time the zone skips: the constructor refused zones with overlaps.
        if (rules.getTransition(local) != null) {
            throw invalidId(id, "its time part " + id.substring(0, TIME_DIGITS) + " does not exist in " + zone);
        }
        return new Parts(id, local.toInstant(rules.getOffset(local)), bizCode, (int) bucket, sequence);
    }

    /**
     * @param bizCode a business code
     * @return {@code bizCode}
     * @throws InvalidArgumentException naming {@code bizCode} unless it is 0 to {@value #MAX_BIZ_CODE_LENGTH}
     *         characters of {@code [A-Za-z0-9]}
     */
    public static String checkBizCode(String bizCode) {
        // A plain loop rather than a regex: this runs on every call and must not allocate.
        if (bizCode == null || bizCode.length() > MAX_BIZ_CODE_LENGTH || !isBizCode(bizCode)) {
            String shown = bizCode == null
                    ? "null"
                    : "'" + (bizCode.length() > 80 ? bizCode.substring(0, 80) + "..." : bizCode) + "'";
            throw new InvalidArgumentException(
                    "bizCode",
                    bizCode,
                    "bizCode must be 0 to " + MAX_BIZ_CODE_LENGTH + " characters of [A-Za-z0-9], but was " + shown);
        }
        return bizCode;
    }

    /**
     * @return how many buckets the IDs come from
     */
    public int buckets() {
        return buckets;
    }

    /**
     * @return the largest sequence
     */
    public long maxSequence() {
        return maxSequence;
    }

    /**
     * @return the zone of the time part
     */
    public ZoneId zone() {
        return zone;
    }

    @Override
    public String toString() {
        return "ReadableIdFormat[yyMMddHHmmssSSS in " + zone + ", 0 to " + MAX_BIZ_CODE_LENGTH + " of [A-Za-z0-9], "
                + bucketDigits + " digits of bucket, " + sequenceDigits + " of sequence]";
    }

    private Second second(long epochSecond) {
        ZoneOffset offset = rules.getOffset(Instant.ofEpochSecond(epochSecond));
        LocalDateTime local = LocalDateTime.ofEpochSecond(epochSecond, 0, offset);
        byte[] digits = new byte[12];
        writeDigits(digits, 0, 2, local.getYear() - FIRST_YEAR);
        writeDigits(digits, 2, 2, local.getMonthValue());
        writeDigits(digits, 4, 2, local.getDayOfMonth());
        writeDigits(digits, 6, 2, local.getHour());
        writeDigits(digits, 8, 2, local.getMinute());
        writeDigits(digits, 10, 2, local.getSecond());
        return new Second(epochSecond, digits);
    }

    private static void writeDigits(byte[] out, int from, int width, long value) {
        for (int i = from + width - 1; i >= from; i--) {
            out[i] = (byte) ('0' + value % 10);
            value /= 10;
        }
    }

    /**
     * @return the number, or -1 when a character is not a digit
     */
    private static long parseDigits(String s, int from, int to) {
        long value = 0;
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }

    private static int digits(long value) {
        int digits = 1;
        while (value >= 10) {
            value /= 10;
            digits++;
        }
        return digits;
    }

    private static boolean isBizCode(String s) {
        for (int i = 0, n = s.length(); i < n; i++) {
            char c = s.charAt(i);
            if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))) {
                return false;
            }
        }
        return true;
    }

    private InvalidArgumentException invalidId(String id, String reason) {
        String shown = id == null ? "null" : "'" + (id.length() > 80 ? id.substring(0, 80) + "..." : id) + "'";
        return new InvalidArgumentException(
                "id",
                id,
                "id must be a readable ID of this format (" + TIME_DIGITS
                        + " digits yyMMddHHmmssSSS, 0 to " + MAX_BIZ_CODE_LENGTH + " of [A-Za-z0-9], " + bucketDigits
                        + " digits of bucket, " + sequenceDigits + " of sequence: " + fixedLength + " to "
                        + (fixedLength + MAX_BIZ_CODE_LENGTH) + " characters), but " + shown + " is not: " + reason);
    }

    /**
     * Refuses a zone that sets its clocks back while IDs can be written: the hour it repeats would write two
     * different milliseconds as the same time part.
     */
    private static ZoneId checkZone(ZoneId zone) {
        if (zone == null) {
            throw new InvalidArgumentException("zone", null, "zone must not be null");
        }
        ZoneRules rules = zone.getRules();
        for (ZoneOffsetTransition transition = rules.nextTransition(FIRST_INSTANT);
                transition != null && transition.getInstant().isBefore(END_INSTANT);
                transition = rules.nextTransition(transition.getInstant())) {
            if (transition.isOverlap()) {
                throw new InvalidArgumentException(
                        "zone",
                        zone,
                        "zone must not set its clocks back between 2000"
                                + " and 2099, but " + zone + " does at " + transition.getInstant() + " (" + transition
                                + "): the repeated local time would repeat readable IDs. Use UTC or a fixed offset such as"
                                + " +08:00");
            }
        }
        return zone;
    }
}
