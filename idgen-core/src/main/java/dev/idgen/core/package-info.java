/**
 * The ID service API ({@link dev.idgen.core.IdService}) and what every strategy shares: decoded IDs, time sources,
 * the circuit breaker and the exceptions callers can tell apart. Depends on nothing but the JDK.
 */
package dev.idgen.core;
