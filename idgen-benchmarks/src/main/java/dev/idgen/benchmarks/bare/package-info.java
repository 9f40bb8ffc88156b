/** The bare Spring MVC endpoint the idgen server is measured beside. */
package dev.idgen.benchmarks.bare;
