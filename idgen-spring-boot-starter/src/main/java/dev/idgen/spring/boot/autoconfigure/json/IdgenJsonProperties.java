package dev.idgen.spring.boot.autoconfigure.json;

import dev.idgen.spring.IdgenId;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * How JSON carries the IDs marked with {@link IdgenId}.
 */
@ConfigurationProperties("idgen.json")
public class IdgenJsonProperties {

    /**
     * Whether @IdgenId long fields and getters are written as JSON strings (and read from a string or a number), so
     * that JavaScript clients, whose numbers hold integers exactly only up to 2^53, read them unchanged. Off, they are
     * plain JSON numbers: then keep IDs below 2^53, for example with idgen.snowflake.preset=javascript-safe.
     */
    private boolean idsAsStrings = true;

    public boolean isIdsAsStrings() {
        return idsAsStrings;
    }

    public void setIdsAsStrings(boolean idsAsStrings) {
        this.idsAsStrings = idsAsStrings;
    }
}
