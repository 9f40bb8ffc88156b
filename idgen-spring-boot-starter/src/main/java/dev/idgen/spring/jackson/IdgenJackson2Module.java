package dev.idgen.spring.jackson;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.Version;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.Module;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.introspect.Annotated;
import com.fasterxml.jackson.databind.introspect.AnnotatedMethod;
import com.fasterxml.jackson.databind.introspect.NopAnnotationIntrospector;
import com.fasterxml.jackson.databind.ser.std.ToStringSerializer;
import dev.idgen.spring.IdgenId;
import java.io.IOException;

/**
 * Jackson 2 (Spring Boot's deprecated {@code spring-boot-jackson2}), as {@link IdgenJacksonModule} is for Jackson 3:
 * writes {@code long} and {@code Long} fields and getters marked with {@link IdgenId} as JSON strings
 * ({@code "id": "7281937148463104"}) and reads them from a string or a number. A string that is not a 64-bit whole
 * number fails to deserialize, naming the property. Other longs stay numbers.
 *
 * <p>Spring Boot registers it on its Jackson 2 {@code ObjectMapper} when {@code idgen.json.ids-as-strings} is true (the
 * default); an application that builds its own mapper adds it with {@code mapper.registerModule(new
 * IdgenJackson2Module())}. An explicit {@code @JsonSerialize} or {@code @JsonDeserialize} on the same member wins.
 */
public final class IdgenJackson2Module extends Module {

    private final boolean idsAsStrings;

    /** A module that writes IDs as strings. */
    public IdgenJackson2Module() {
        this(true);
    }

    /**
     * @param idsAsStrings whether to write IDs as strings; {@code false} leaves them to Jackson (numbers)
     */
    public IdgenJackson2Module(boolean idsAsStrings) {
        this.idsAsStrings = idsAsStrings;
    }

    @Override
    public String getModuleName() {
        return "idgen";
    }

    @Override
    public Version version() {
        return Version.unknownVersion();
    }

    @Override
    public void setupModule(SetupContext context) {
        if (idsAsStrings) {
            // Appended, not inserted: Jackson's own annotations on the member are asked first.
            context.appendAnnotationIntrospector(new Introspector());
        }
    }

    @Override
    public String toString() {
        return "IdgenJackson2Module[idsAsStrings=" + idsAsStrings + "]";
    }

    private static final class Introspector extends NopAnnotationIntrospector {

        private static final long serialVersionUID = 1L;

        @Override
        public Object findSerializer(Annotated a) {
            return IdgenIdJson.isLongId(a.getAnnotation(IdgenId.class), a.getRawType())
                    ? ToStringSerializer.instance
                    : null;
        }

        @Override
        public Object findDeserializer(Annotated a) {
            // A setter's type is its parameter's; Annotated.getRawType() of a method is its return type.
            Class<?> type = a instanceof AnnotatedMethod method && method.getParameterCount() == 1
                    ? method.getRawParameterType(0)
                    : a.getRawType();
            return IdgenIdJson.isLongId(a.getAnnotation(IdgenId.class), type) ? new IdDeserializer(type) : null;
        }
    }

    /** Reads an ID from a JSON string or number. */
    private static final class IdDeserializer extends StdDeserializer<Long> {

        private static final long serialVersionUID = 1L;

        private final boolean primitive;

        IdDeserializer(Class<?> type) {
            super(Long.class);
            this.primitive = type == long.class;
        }

        @Override
        public Long deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            JsonToken token = p.currentToken();
            if (token == JsonToken.VALUE_NUMBER_INT) {
                return p.getLongValue();
            }
            if (token == JsonToken.VALUE_STRING) {
                String text = p.getText();
                try {
                    return Long.parseLong(text);
                } catch (NumberFormatException e) {
                    throw ctxt.weirdStringException(text, Long.class, IdgenIdJson.notAnId(p.currentName(), text));
                }
            }
            if (token == JsonToken.VALUE_NUMBER_FLOAT) {
                return ctxt.reportInputMismatch(this, IdgenIdJson.notWhole(p.currentName()));
            }
            return (Long) ctxt.handleUnexpectedToken(Long.class, p);
        }

        @Override
        public Long getNullValue(DeserializationContext ctxt) throws JsonMappingException {
            if (primitive && ctxt.isEnabled(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)) {
                return ctxt.reportInputMismatch(this, "null is not a long ID");
            }
            return primitive ? 0L : null;
        }
    }
}
