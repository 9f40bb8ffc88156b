/**
 * {@code @IdgenId} longs as JSON strings, for Jackson 3 and Jackson 2, and its {@code idgen.json.*} settings.
 */
package dev.idgen.spring.boot.autoconfigure.json;
