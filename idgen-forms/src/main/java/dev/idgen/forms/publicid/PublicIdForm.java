package dev.idgen.forms.publicid;

import dev.idgen.core.DecodedId;
import dev.idgen.core.IdArguments;
import dev.idgen.core.IdSequence;
import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.form.IdForm;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A generator's IDs as public IDs: each ID of the sequence, encrypted by a {@link PublicIdCodec} into 18 characters
 * that reveal nothing about it (see the codec for the cipher, the integrity check and key rotation).
 *
 * <p>Thread-safe, as the sequence and the codec are.
 */
public final class PublicIdForm implements IdForm {

    /** The form's name, as configured with {@code idgen.generators.<name>.form}. */
    public static final String FORM = "public";

    private final String generator;
    private final IdSequence sequence;
    private final PublicIdCodec codec;

    /**
     * @param generator the generator's name; normally also the codec's {@linkplain PublicIdCodec#tweak() tweak}
     * @param sequence where the internal IDs come from, and how they are decoded
     * @param codec the keys
     * @throws InvalidArgumentException (argument {@code generator}, {@code sequence} or {@code codec}) when one is
     *         missing
     */
    public PublicIdForm(String generator, IdSequence sequence, PublicIdCodec codec) {
        if (generator == null || generator.isEmpty()) {
            throw new InvalidArgumentException("generator", generator, "generator must be a non-empty name");
        }
        if (sequence == null) {
            throw new InvalidArgumentException("sequence", null, "sequence must be set");
        }
        if (codec == null) {
            throw new InvalidArgumentException("codec", null, "codec must be set");
        }
        this.generator = generator;
        this.sequence = sequence;
        this.codec = codec;
    }

    @Override
    public String generator() {
        return generator;
    }

    @Override
    public String form() {
        return FORM;
    }

    @Override
    public String next() {
        return codec.encode(sequence.nextId());
    }

    @Override
    public String[] next(int count) {
        long[] ids = sequence.nextIds(IdArguments.checkCount(count));
        String[] texts = new String[ids.length];
        for (int i = 0; i < ids.length; i++) {
            texts[i] = codec.encode(ids[i]);
        }
        return texts;
    }

    /**
     * {@inheritDoc}
     *
     * @return {@code form}, then {@code timestamp} when the internal ID has one, {@code id} (the internal ID, a
     *         {@code long}), {@code keyVersion}, then the rest of what the sequence decodes from the internal ID
     *         ({@code strategy}, {@code generator}, {@code workerId}, ...)
     */
    @Override
    public Map<String, Object> decode(String text) {
        long id = codec.decode(text);
        DecodedId parts;
        try {
            parts = sequence.decode(id);
        } catch (IllegalArgumentException e) {
            // The check passed, so the codec's key made this ID: a key shared with another generator's codec.
            throw new InvalidArgumentException(
                    "id",
                    text,
                    "public id '" + text + "' decrypts to " + id + ", which" + " generator '" + generator
                            + "' cannot have issued: " + e.getMessage());
        }
        Map<String, Object> internal = parts.toMap();
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("form", FORM);
        if (internal.containsKey("timestamp")) {
            map.put("timestamp", internal.get("timestamp"));
        }
        map.put("id", Long.toString(id));
        map.put("keyVersion", codec.versionOf(text));
        internal.forEach(map::putIfAbsent);
        return Collections.unmodifiableMap(map);
    }

    @Override
    public String toString() {
        return "PublicIdForm[generator=" + generator + ", " + codec + "]";
    }
}
