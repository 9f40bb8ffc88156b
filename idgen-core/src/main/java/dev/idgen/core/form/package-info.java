/**
 * The ID forms the field uses, as plain Java: strings of any 64-bit ID ({@link dev.idgen.core.form.IdText}: Crockford
 * Base32 and Base62, fixed width, with an optional typed prefix), 128-bit and database-friendly IDs (UUIDv7, ordered
 * GUIDs, MongoDB ObjectIds, 128-bit flakes), Simpleflake, and {@link dev.idgen.core.form.IdForm}, one generator's IDs
 * as strings with their decode. Shard-aware and public (encrypted) IDs need a hash and a cipher library and live in
 * {@code idgen-forms}.
 */
package dev.idgen.core.form;
