package dev.idgen.core.form;

import dev.idgen.core.IdArguments;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The {@link IdForm} of one of this package's generators: its {@code next} and {@code decode} given as functions.
 */
final class GeneratorForm implements IdForm {

    private final String generator;

    private final String form;

    private final Supplier<String> next;

    private final Function<String, Map<String, Object>> decode;

    /**
     * @param generator the generator's name
     * @param form the form's name
     * @param next the next ID's canonical string
     * @param decode reads a canonical string (never {@code null}), or throws {@code InvalidArgumentException} naming
     *        {@code id}
     */
    GeneratorForm(String generator, String form, Supplier<String> next, Function<String, Map<String, Object>> decode) {
        this.generator = Forms.checkGenerator(generator);
        this.form = form;
        this.next = next;
        this.decode = decode;
    }

    @Override
    public String generator() {
        return generator;
    }

    @Override
    public String form() {
        return form;
    }

    @Override
    public String next() {
        return next.get();
    }

    @Override
    public String[] next(int count) {
        String[] ids = new String[IdArguments.checkCount(count)];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = next.get();
        }
        return ids;
    }

    @Override
    public Map<String, Object> decode(String text) {
        if (text == null) {
            throw Forms.invalidId(null, "id must be a " + form + " string, but was null");
        }
        return decode.apply(text);
    }

    @Override
    public String toString() {
        return "IdForm[generator=" + generator + ", form=" + form + "]";
    }
}
