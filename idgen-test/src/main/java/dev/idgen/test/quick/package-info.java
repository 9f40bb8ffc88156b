/** The fast inner loop: the unit and contract tests that need no external service. */
package dev.idgen.test.quick;
