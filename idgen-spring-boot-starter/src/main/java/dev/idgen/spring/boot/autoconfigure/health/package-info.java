/**
 * The {@code idgen} health contributor: one indicator per generator, asking each backend's
 * {@link IdgenGeneratorHealth} for its part.
 */
package dev.idgen.spring.boot.autoconfigure.health;
