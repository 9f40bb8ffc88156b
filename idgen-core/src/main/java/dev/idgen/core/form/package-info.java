/**
 * The ID forms the field uses, as plain Java: strings of any 64-bit ID ({@link dev.idgen.core.form.IdText}: Crockford
 * Base32 and Base62, fixed width, with an optional typed prefix; {@link dev.idgen.core.form.TextIdForm} for a
 * sequence's IDs), 128-bit and database-friendly IDs ({@link dev.idgen.core.form.UuidV7Generator},
 * {@link dev.idgen.core.form.OrderedGuidGenerator}, MongoDB ObjectIds from {@link dev.idgen.core.form.ObjectIdGenerator},
 * 128-bit flakes from {@link dev.idgen.core.form.Flake128Generator}), {@link dev.idgen.core.form.SimpleflakeGenerator},
 * and {@link dev.idgen.core.form.IdForm}, one generator's IDs as strings with their decode. Shard-aware and public
 * (encrypted) IDs need a hash and a cipher library and live in {@code idgen-forms}.
 *
 * <p>Every generator here reads an injectable {@link dev.idgen.core.TimeSource}, never issues the same value twice
 * (it throws an {@link dev.idgen.core.IdGenerationException} instead when it cannot be sure), and allocates nothing on
 * its hot path beyond the value it returns.
 */
package dev.idgen.core.form;
