/**
 * What a native image of an application on idgen-jdbc needs to hold beyond what its code reaches: the hints Spring's
 * ahead-of-time processing collects.
 */
package dev.idgen.jdbc.aot;
