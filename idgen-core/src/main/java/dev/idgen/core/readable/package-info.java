/**
 * Readable IDs such as {@code 250314093015123ORD04200017}: their format, written and parsed by
 * {@link dev.idgen.core.readable.ReadableIdFormat}.
 */
package dev.idgen.core.readable;
