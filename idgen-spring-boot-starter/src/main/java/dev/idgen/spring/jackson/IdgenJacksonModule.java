package dev.idgen.spring.jackson;

import dev.idgen.spring.IdgenId;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.Version;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JacksonModule;
import tools.jackson.databind.cfg.MapperConfig;
import tools.jackson.databind.deser.std.StdDeserializer;
import tools.jackson.databind.introspect.Annotated;
import tools.jackson.databind.introspect.AnnotatedMethod;
import tools.jackson.databind.introspect.NopAnnotationIntrospector;
import tools.jackson.databind.ser.std.ToStringSerializer;

/**
 * Jackson 3: writes {@code long} and {@code Long} fields and getters marked with {@link IdgenId} as JSON strings
 * ({@code "id": "7281937148463104"}) and reads them from a string or a number. A string that is not a 64-bit whole
 * number fails to deserialize, naming the property. Other longs stay numbers.
 *
 * <p>Spring Boot registers it on its {@code JsonMapper} when {@code idgen.json.ids-as-strings} is true (the default);
 * an application that builds its own mapper adds it with {@code JsonMapper.builder().addModule(new
 * IdgenJacksonModule())}. An explicit {@code @JsonSerialize} or {@code @JsonDeserialize} on the same member wins.
 */
public final class IdgenJacksonModule extends JacksonModule {

    private final boolean idsAsStrings;

    /** A module that writes IDs as strings. */
    public IdgenJacksonModule() {
        this(true);
    }

    /**
     * @param idsAsStrings whether to write IDs as strings; {@code false} leaves them to Jackson (numbers)
     */
    public IdgenJacksonModule(boolean idsAsStrings) {
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
        return "IdgenJacksonModule[idsAsStrings=" + idsAsStrings + "]";
    }

    private static final class Introspector extends NopAnnotationIntrospector {

        private static final long serialVersionUID = 1L;

        @Override
        public Object findSerializer(MapperConfig<?> config, Annotated a) {
            return IdgenIdJson.isLongId(a.getAnnotation(IdgenId.class), a.getRawType())
                    ? ToStringSerializer.instance
                    : null;
        }

        @Override
        public Object findDeserializer(MapperConfig<?> config, Annotated a) {
            // A setter's type is its parameter's; Annotated.getRawType() of a method is its return type.
            Class<?> type = a instanceof AnnotatedMethod method && method.getParameterCount() == 1
                    ? method.getRawParameterType(0)
                    : a.getRawType();
            return IdgenIdJson.isLongId(a.getAnnotation(IdgenId.class), type) ? new IdDeserializer(type) : null;
        }
    }

    /** Reads an ID from a JSON string or number. */
    private static final class IdDeserializer extends StdDeserializer<Long> {

        private final boolean primitive;

        IdDeserializer(Class<?> type) {
            super(Long.class);
            this.primitive = type == long.class;
        }

        @Override
        public Long deserialize(JsonParser p, DeserializationContext ctxt) {
            JsonToken token = p.currentToken();
            if (token == JsonToken.VALUE_NUMBER_INT) {
                return p.getLongValue();
            }
            if (token == JsonToken.VALUE_STRING) {
                String text = p.getString();
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
        public Object getNullValue(DeserializationContext ctxt) {
            if (primitive && ctxt.isEnabled(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)) {
                return ctxt.reportInputMismatch(this, "null is not a long ID");
            }
            return primitive ? 0L : null;
        }
    }
}
