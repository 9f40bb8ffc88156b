package dev.idgen.client;

import dev.idgen.core.TimeSource;
import dev.idgen.core.segment.Segment;
import java.math.BigDecimal;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * What an idgen server's answer to a block request means: the block, checked against the request before the client
 * hands it on (a block that could overlap another caller's is never used), and how long a 429 asks to wait. Stateless;
 * {@link RemoteSegmentStore} decides what to do with the answer (which server next, what the breaker hears).
 */
final class RemoteAnswers {

    /** How long a 429 without a usable Retry-After keeps the server out. */
    static final Duration DEFAULT_RETRY_AFTER = Duration.ofSeconds(1);

    private static final Pattern DECIMAL_LONG = Pattern.compile("-?[0-9]{1,19}");

    private static final Pattern SECONDS = Pattern.compile("[0-9]{1,9}");

    private RemoteAnswers() {}

    /**
     * @return the block in {@code body}, checked
     * @throws IllegalArgumentException saying what is wrong with it
     */
    static Segment block(String body, String name, long step, long floor) {
        Map<String, Object> json = FlatJson.parseObject(body);
        Object answeredName = json.get("name");
        if (!name.equals(answeredName)) {
            throw new IllegalArgumentException("name " + quote(answeredName) + " where '" + name + "' was asked for");
        }
        long first = longField(json, "first");
        long last = longField(json, "last");
        if (first < 1 || last < first) {
            throw new IllegalArgumentException("first " + first + " and last " + last + " are no block");
        }
        long size;
        try {
            size = Math.addExact(Math.subtractExact(last, first), 1);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("first " + first + " and last " + last + " are no block", e);
        }
        // Fewer IDs than asked is a block the segment buffer can use (an interleaved store on the server hands out
        // at most its slot); more would reach into what the store may give someone else.
        if (size > step) {
            throw new IllegalArgumentException(
                    size + " IDs (" + first + " to " + last + ") where at most " + step + " were asked for");
        }
        if (json.containsKey("size")
                && !(json.get("size") instanceof BigDecimal declared
                        && declared.compareTo(BigDecimal.valueOf(size)) == 0)) {
            throw new IllegalArgumentException(
                    "size " + quote(json.get("size")) + " does not match " + size + " IDs from first to last");
        }
        if (first <= floor) {
            throw new IllegalArgumentException("first " + first + " is not above " + floor);
        }
        return new Segment(first, last);
    }

    /** first and last are JSON strings of decimal longs (JavaScript's numbers lose digits); a plain number is taken. */
    private static long longField(Map<String, Object> json, String field) {
        Object value = json.get(field);
        try {
            if (value instanceof String text && DECIMAL_LONG.matcher(text).matches()) {
                return Long.parseLong(text);
            }
            if (value instanceof BigDecimal number) {
                return number.longValueExact();
            }
        } catch (NumberFormatException | ArithmeticException e) {
            // reported below
        }
        throw new IllegalArgumentException(field + " " + quote(value) + " is not a decimal long");
    }

    private static String quote(Object value) {
        if (value == null) {
            return "missing";
        }
        String text = value instanceof String s ? "'" + s + "'" : String.valueOf(value);
        return text.length() > 60 ? text.substring(0, 60) + "..." : text;
    }

    /**
     * @param response a 429
     * @param clock the wall clock an HTTP-date {@code Retry-After} is read against
     * @param max the longest wait honoured: a server that asks for an hour is still asked again once the breaker would
     *        have let it back
     * @return how long the server asked not to be called: its {@code Retry-After} in seconds or as an HTTP date, else
     *         {@link #DEFAULT_RETRY_AFTER}; never negative
     */
    static long retryAfterNanos(HttpResponse<?> response, TimeSource clock, Duration max) {
        String value = response.headers().firstValue("Retry-After").orElse(null);
        Duration wait = DEFAULT_RETRY_AFTER;
        if (value != null) {
            String trimmed = value.trim();
            try {
                if (SECONDS.matcher(trimmed).matches()) {
                    wait = Duration.ofSeconds(Long.parseLong(trimmed));
                } else {
                    ZonedDateTime at = ZonedDateTime.parse(trimmed, DateTimeFormatter.RFC_1123_DATE_TIME);
                    wait = Duration.ofMillis(at.toInstant().toEpochMilli() - clock.currentTimeMillis());
                }
            } catch (DateTimeParseException e) {
                wait = DEFAULT_RETRY_AFTER;
            }
        }
        if (wait.isNegative()) {
            wait = Duration.ZERO;
        }
        return Math.min(wait.toNanos(), max.toNanos());
    }
}
