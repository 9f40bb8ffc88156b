/**
 * Test support for idgen and for stores written by its users: the contract suites every store and ID service runs,
 * and {@link dev.idgen.test.CallOrder}, which checks the order guarantee on recorded calls.
 */
package dev.idgen.test;
