package dev.idgen.samples;

import com.fasterxml.jackson.annotation.JsonValue;
import dev.idgen.core.RoutingIdService;
import dev.idgen.spring.IdgenId;

/**
 * One 64-bit ID in a response, written as the bare JSON string that {@link IdgenId} makes of a long: the starter's
 * Jackson module does the writing, so no controller turns longs into strings by hand. The generator name is what the
 * annotation asks for; JSON does not read it (only entity filling would).
 *
 * @param value the ID
 */
record IdJson(
        @JsonValue @IdgenId(RoutingIdService.DEFAULT_GENERATOR)
        long value) {}
