package dev.idgen.core.snowflake;

import dev.idgen.core.DecodedId;
import dev.idgen.core.IdArguments;
import dev.idgen.core.InvalidArgumentException;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The parts of a Snowflake ID.
 *
 * @param id the ID
 * @param timestamp the start of the tick it was issued in
 * @param workerId the worker that issued it
 * @param sequence its sequence within the tick
 */
public record SnowflakeDecodedId(long id, Instant timestamp, long workerId, long sequence) implements DecodedId {

    /** The strategy name. */
    public static final String STRATEGY = "snowflake";

    /**
     * @param layout the layout the ID was issued under
     * @param id a positive ID
     * @return its parts
     * @throws InvalidArgumentException naming {@code id} when it is not positive or has bits above the layout
     */
    public static SnowflakeDecodedId decode(SnowflakeLayout layout, long id) {
        IdArguments.checkId(id);
        if (id > layout.maxId()) {
            throw new InvalidArgumentException(
                    "id",
                    id,
                    "id " + id + " cannot be a Snowflake ID of this layout: it is" + " above the layout's largest ID "
                            + layout.maxId());
        }
        int sequenceBits = layout.sequenceBits();
        long tick = id >>> (layout.workerBits() + sequenceBits);
        Instant timestamp;
        try {
            timestamp = Instant.ofEpochMilli(Math.addExact(
                    layout.epoch().toEpochMilli(),
                    Math.multiplyExact(tick, layout.tickUnit().millis())));
        } catch (ArithmeticException e) {
            throw new InvalidArgumentException(
                    "id",
                    id,
                    "id " + id + " cannot be a Snowflake ID of this layout: its"
                            + " timestamp is beyond the representable time");
        }
        return new SnowflakeDecodedId(
                id, timestamp, (id >>> sequenceBits) & layout.maxWorkerId(), id & layout.maxSequence());
    }

    @Override
    public String strategy() {
        return STRATEGY;
    }

    @Override
    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("strategy", STRATEGY);
        map.put("id", Long.toString(id));
        map.put("timestamp", timestamp);
        map.put("workerId", workerId);
        map.put("sequence", sequence);
        return Collections.unmodifiableMap(map);
    }
}
