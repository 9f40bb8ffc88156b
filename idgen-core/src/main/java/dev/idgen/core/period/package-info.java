/**
 * Counters per period: numbers that start at 1 again every day, month or year ({@link
 * dev.idgen.core.period.PeriodicIdService}), by giving each period a counter of its own instead of resetting one.
 */
package dev.idgen.core.period;
