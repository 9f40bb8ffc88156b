/**
 * The reactive face's auto-configuration ({@code ReactiveIdService}, {@code ReactiveReadableIdService}) and its
 * {@code idgen.reactive.*} settings.
 */
package dev.idgen.spring.boot.autoconfigure.reactive;
