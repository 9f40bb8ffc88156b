/**
 * JCStress tests of idgen-core's hot-path state machines, run by every {@code verify}.
 */
package dev.idgen.jcstress;
