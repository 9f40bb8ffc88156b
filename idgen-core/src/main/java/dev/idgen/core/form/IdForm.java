package dev.idgen.core.form;

import dev.idgen.core.IdGenerationException;
import dev.idgen.core.IdService;
import dev.idgen.core.InvalidArgumentException;
import java.util.Map;

/**
 * One generator's IDs in the form its users see: the canonical string of each ID, and the parts it carries read back
 * from that string. A 64-bit generator without a form of its own has the {@code number} form (decimal strings); the
 * other forms are listed in the README's "Which form?" table.
 *
 * <p>Implementations are thread-safe.
 */
public interface IdForm {

    /**
     * @return the generator this form belongs to, for example {@code uuid}
     */
    String generator();

    /**
     * @return the form's name as configured with {@code idgen.generators.<name>.form}, for example {@code uuid-v7}
     */
    String form();

    /**
     * The next ID, as its canonical string.
     *
     * @return a string that {@link #decode(String)} reads back
     * @throws IdGenerationException when no ID can be issued safely
     * @throws InvalidArgumentException (argument {@code shardKey}) when the form needs a shard key
     */
    String next();

    /**
     * The next {@code count} IDs, in the order they were issued.
     *
     * @param count how many, from 1 to {@link IdService#MAX_BATCH_SIZE}
     * @return a new array of canonical strings
     * @throws InvalidArgumentException (argument {@code count}) when the count breaks its rule
     * @throws IdGenerationException when no ID can be issued safely
     */
    String[] next(int count);

    /**
     * The next {@code count} IDs that route with {@code shardKey}: only shard-aware forms take a key.
     *
     * @param count how many, from 1 to {@link IdService#MAX_BATCH_SIZE}
     * @param shardKey the business key (for example the buyer's user id) whose logical shard the IDs carry
     * @return a new array of canonical strings
     * @throws InvalidArgumentException (argument {@code shardKey}) when the form is not shard-aware or the key is
     *         empty; (argument {@code count}) when the count breaks its rule
     */
    default String[] next(int count, String shardKey) {
        throw new InvalidArgumentException(
                "shardKey",
                shardKey,
                "shardKey is only for shard-aware generators, and" + " generator '" + generator() + "' has the "
                        + form() + " form");
    }

    /**
     * What an ID carries, read from its canonical string: {@code form} first, then {@code timestamp} (an
     * {@link java.time.Instant}) where the form has one, then the form's own parts ({@code shard} for shard-aware
     * IDs, {@code id} for public IDs, ...). A 64-bit {@code id} is a decimal string, as in
     * {@link dev.idgen.core.DecodedId#toMap()}.
     *
     * @param text the canonical string
     * @return an unmodifiable, ordered map
     * @throws InvalidArgumentException (argument {@code id}) when the text is not an ID of this form: malformed,
     *         truncated, tampered with, or of an unknown key version; never a wrong ID
     */
    Map<String, Object> decode(String text);
}
