package dev.idgen.spring.boot.autoconfigure.forms;

import dev.idgen.core.DecodedId;
import dev.idgen.core.IdArguments;
import dev.idgen.core.IdSequence;
import dev.idgen.core.IdService;
import dev.idgen.core.RoutingIdService;
import dev.idgen.core.form.IdForm;
import dev.idgen.core.form.IdForms;
import dev.idgen.spring.boot.autoconfigure.core.Form;
import dev.idgen.spring.boot.autoconfigure.core.IdgenGenerators;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * Every generator's {@link IdForm} at run time: the named generators' forms, made once by {@link IdgenFormFactory},
 * and the default generator's form over any name it serves.
 */
public final class IdgenForms implements IdForms {

    private final Map<String, IdForm> forms = new LinkedHashMap<>();

    private final IdService ids;

    private final IdgenGenerators.Definition defaultGenerator;

    /** The default generator's public form over a name's sequence, or null when its form is another. */
    private final BiFunction<String, IdSequence, IdForm> defaultPublic;

    /**
     * @param ids the service the forms draw from (the default generator's names go through it)
     * @param defaultGenerator the top-level generator, whose form every name without a generator of its own gets
     */
    public IdgenForms(IdService ids, IdgenGenerators.Definition defaultGenerator) {
        this.ids = ids;
        this.defaultGenerator = defaultGenerator;
        // One codec for every name the default generator serves: its tweak is the generator's name.
        this.defaultPublic = defaultGenerator.form() == Form.PUBLIC ? ModuleForms.publicForms(defaultGenerator) : null;
    }

    public void put(String generator, IdForm form) {
        forms.put(generator, form);
    }

    /** @return every named generator's form, by name */
    Map<String, IdForm> named() {
        return Collections.unmodifiableMap(forms);
    }

    @Override
    public IdForm form(String name) {
        IdForm own = forms.get(IdArguments.checkName(name));
        if (own != null) {
            return own;
        }
        return defaultForm(name, ids.sequence(name));
    }

    /** The default generator's form over one of its sequences (a name it serves). */
    private IdForm defaultForm(String name, IdSequence sequence) {
        return defaultPublic != null
                ? defaultPublic.apply(name, sequence)
                : IdgenFormFactory.form(defaultGenerator, name, sequence, null);
    }

    /**
     * The form of one generator, to read its IDs and name its form: unlike {@link #form(String)} it starts no sequence
     * for the default generator (a segment generator would keep buffers, and take a name, for a sequence nobody
     * issues from). Its {@code next} methods refuse.
     *
     * @param generator a generator's name: {@value RoutingIdService#DEFAULT_GENERATOR} or its own
     */
    @Override
    public IdForm decoder(String generator) {
        IdForm own = forms.get(IdArguments.checkName(generator));
        if (own != null) {
            return own;
        }
        return defaultForm(generator, new DecodingSequence(ids, generator));
    }

    /** A sequence that only decodes, through the service's {@code decode(name, id)}. */
    private record DecodingSequence(IdService service, String name) implements IdSequence {

        @Override
        public String generator() {
            return RoutingIdService.DEFAULT_GENERATOR;
        }

        @Override
        public String strategy() {
            return service.strategy();
        }

        @Override
        public long nextId() {
            throw new IllegalStateException("A sequence for decoding issues no ID");
        }

        @Override
        public long[] nextIds(int count) {
            throw new IllegalStateException("A sequence for decoding issues no ID");
        }

        @Override
        public DecodedId decode(long id) {
            return service.decode(name, id);
        }
    }
}
