package dev.idgen.core.snowflake;

/**
 * The unit of a Snowflake layout's timestamp.
 */
public enum TickUnit {

    /** One tick per millisecond: more IDs per second, fewer years per timestamp bit. */
    MILLISECONDS(1),

    /** One tick per second: 1000 times the lifetime per timestamp bit, for small layouts such as the JavaScript-safe one. */
    SECONDS(1000);

    private final long millis;

    TickUnit(long millis) {
        this.millis = millis;
    }

    /**
     * @return the length of one tick in milliseconds
     */
    public long millis() {
        return millis;
    }
}
