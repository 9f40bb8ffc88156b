package dev.idgen.core.period;

import dev.idgen.core.DecodedId;
import java.time.LocalDate;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a {@link PeriodicIdService} ID carries: its period and its number in that period. Its map lists
 * {@code strategy}, {@code period} (as people write it: {@code 2026-11-23}, {@code 2026-11} or {@code 2026}),
 * {@code number} and {@code id}.
 *
 * @param strategy the strategy of the counter that issued the number, for example {@code ticket}
 * @param id the ID
 * @param period the service's period
 * @param firstDay the first day of the ID's period, in the service's zone
 * @param number the ID's number in its period, from 1
 */
public record PeriodicDecodedId(String strategy, long id, Period period, LocalDate firstDay, long number)
        implements DecodedId {

    @Override
    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("strategy", strategy);
        map.put("period", period.label(firstDay));
        map.put("number", number);
        map.put("id", Long.toString(id));
        return Collections.unmodifiableMap(map);
    }
}
