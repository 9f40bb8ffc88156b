/**
 * idgen for reactive callers: {@link dev.idgen.spring.reactive.ReactiveIdService} and
 * {@link dev.idgen.spring.reactive.ReactiveReadableIdService}, auto-configured when Reactor is on the class path.
 */
package dev.idgen.spring.reactive;
