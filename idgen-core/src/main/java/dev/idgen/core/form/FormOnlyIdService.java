package dev.idgen.core.form;

import dev.idgen.core.DecodedId;
import dev.idgen.core.IdService;
import dev.idgen.core.InvalidArgumentException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * The {@link IdService} a generator whose form issues IDs of its own (a UUIDv7, an ObjectId, ...) stands behind: its
 * IDs are strings, not 64-bit numbers, so every 64-bit call is refused, naming where the strings come from. Routing
 * the generator's name here keeps it from being served by another generator by mistake.
 */
public final class FormOnlyIdService implements IdService {

    private final IdForm form;

    /**
     * @param form the form that issues the generator's IDs
     */
    public FormOnlyIdService(IdForm form) {
        if (form == null) {
            throw new IllegalArgumentException("form must not be null");
        }
        this.form = form;
    }

    /**
     * @return the form that issues the generator's IDs
     */
    public IdForm form() {
        return form;
    }

    /**
     * @return the form's name, for example {@code uuid-v7}: the generator has no strategy underneath
     */
    @Override
    public String strategy() {
        return form.form();
    }

    @Override
    public long nextId(String name) {
        throw refused();
    }

    @Override
    public long[] nextIds(String name, int count) {
        throw refused();
    }

    /** Refused at once, as {@link #nextId(String)}: no call to hand to {@code blocking}. */
    @Override
    public CompletableFuture<Long> nextIdAsync(String name, Executor blocking) {
        throw refused();
    }

    /** Refused at once, as {@link #nextIds(String, int)}. */
    @Override
    public CompletableFuture<long[]> nextIdsAsync(String name, int count, Executor blocking) {
        throw refused();
    }

    @Override
    public DecodedId decode(long id) {
        throw refused();
    }

    private InvalidArgumentException refused() {
        return new InvalidArgumentException(
                "name",
                form.generator(),
                "generator '" + form.generator()
                        + "' issues " + form.form() + " IDs, which are not 64-bit numbers: take them as strings from"
                        + " IdForms.form(\"" + form.generator() + "\")");
    }

    @Override
    public String toString() {
        return "FormOnlyIdService[" + form.form() + "]";
    }
}
