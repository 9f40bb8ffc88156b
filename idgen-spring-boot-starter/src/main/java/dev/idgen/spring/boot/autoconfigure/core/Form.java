package dev.idgen.spring.boot.autoconfigure.core;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * The forms {@code form} accepts: {@link #PUBLIC} and {@link #SHARD} need the {@code idgen-forms} module, the others only
 * {@code idgen-core}.
 */
public enum Form {

    /** Decimal strings of the strategy's IDs. */
    NUMBER(false),

    /** Crockford Base32, 13 characters. */
    CROCKFORD32(false),

    /** Base62, 11 characters. */
    BASE62(false),

    /** FF1-encrypted, with a key version. */
    PUBLIC(false),

    /** Logical shard bits from a key, over Snowflake. */
    SHARD(false),

    /** RFC 9562 UUIDv7. */
    UUID_V7(true),

    /** Ordered GUID (COMB). */
    GUID(true),

    /** MongoDB ObjectId. */
    OBJECT_ID(true),

    /** Boundary's 128-bit flake. */
    FLAKE128(true),

    /** Simpleflake: milliseconds and random bits. */
    SIMPLEFLAKE(true);

    private final boolean standalone;

    Form(boolean standalone) {
        this.standalone = standalone;
    }

    /** Whether the form needs the {@code idgen-forms} module (Bouncy Castle, zero-allocation-hashing). */
    public boolean needsFormsModule() {
        return this == PUBLIC || this == SHARD;
    }

    /** Whether the form issues IDs of its own, with no strategy underneath. */
    public boolean standalone() {
        return standalone;
    }

    /** @return the property value, for example {@code uuid-v7} */
    public String value() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    public static Form of(String value, String property) {
        for (Form candidate : values()) {
            if (value != null && candidate.value().equalsIgnoreCase(value)) {
                return candidate;
            }
        }
        throw new InvalidConfigurationPropertyValueException(
                property,
                value,
                "must be one of "
                        + Arrays.stream(values()).map(Form::value).collect(Collectors.joining(", ", "[", "]")));
    }
}
