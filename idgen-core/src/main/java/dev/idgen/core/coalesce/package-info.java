/**
 * Combining concurrent callers of one store into one round trip: {@link dev.idgen.core.coalesce.BatchCoalescer}
 * and, for counters, {@link dev.idgen.core.coalesce.RangeCoalescer}.
 */
package dev.idgen.core.coalesce;
