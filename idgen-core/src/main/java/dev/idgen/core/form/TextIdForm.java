package dev.idgen.core.form;

import dev.idgen.core.DecodedId;
import dev.idgen.core.IdArguments;
import dev.idgen.core.IdSequence;
import dev.idgen.core.InvalidArgumentException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A 64-bit sequence's IDs as {@link IdText} strings: the form of Snowflake, segment, ticket and Redis IDs shown as
 * Crockford Base32, Base62 or decimal, with or without a typed prefix. The form's name is the text's encoding, except
 * that decimal is the {@code number} form.
 *
 * <p>Thread-safe as its sequence is.
 */
public final class TextIdForm implements IdForm {

    private final String generator;

    private final IdSequence sequence;

    private final IdText text;

    private final String form;

    /**
     * @param generator the generator's name
     * @param sequence where the IDs come from
     * @param text how they are written
     * @throws InvalidArgumentException naming {@code generator}, {@code sequence} or {@code text} when it is missing
     */
    public TextIdForm(String generator, IdSequence sequence, IdText text) {
        if (sequence == null) {
            throw new InvalidArgumentException("sequence", null, "sequence must be set");
        }
        if (text == null) {
            throw new InvalidArgumentException("text", null, "text must be set");
        }
        this.generator = Forms.checkGenerator(generator);
        this.sequence = sequence;
        this.text = text;
        this.form = text.encoding().equals("decimal") ? "number" : text.encoding();
    }

    @Override
    public String generator() {
        return generator;
    }

    /**
     * @return {@code crockford32}, {@code base62} or {@code number}
     */
    @Override
    public String form() {
        return form;
    }

    /**
     * @return the text this form writes its IDs in
     */
    public IdText text() {
        return text;
    }

    @Override
    public String next() {
        return text.format(sequence.nextId());
    }

    @Override
    public String[] next(int count) {
        long[] ids = sequence.nextIds(IdArguments.checkCount(count));
        String[] texts = new String[ids.length];
        for (int i = 0; i < ids.length; i++) {
            texts[i] = text.format(ids[i]);
        }
        return texts;
    }

    /**
     * The sequence's decode of the parsed ID: {@code form}, then {@code timestamp} where the sequence's IDs carry one,
     * then the sequence's own entries in their order, {@code id} (the 64-bit number) among them.
     */
    @Override
    public Map<String, Object> decode(String canonical) {
        long id = text.parse(canonical);
        DecodedId decoded;
        try {
            decoded = sequence.decode(id);
        } catch (InvalidArgumentException e) {
            if ("id".equals(e.argument())) {
                throw e;
            }
            throw notIssued(canonical, e);
        } catch (IllegalArgumentException e) {
            throw notIssued(canonical, e);
        }
        Map<String, Object> parts = decoded.toMap();
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("form", form);
        if (parts.get("timestamp") != null) {
            map.put("timestamp", parts.get("timestamp"));
        }
        parts.forEach(map::putIfAbsent);
        return Collections.unmodifiableMap(map);
    }

    @Override
    public String toString() {
        return "TextIdForm[generator=" + generator + ", " + text + "]";
    }

    private InvalidArgumentException notIssued(String canonical, IllegalArgumentException cause) {
        InvalidArgumentException e = Forms.invalidId(
                canonical,
                "id " + Forms.shown(canonical) + " cannot have been" + " issued by generator '" + generator + "': "
                        + Objects.toString(cause.getMessage(), "rejected"));
        e.initCause(cause);
        return e;
    }
}
