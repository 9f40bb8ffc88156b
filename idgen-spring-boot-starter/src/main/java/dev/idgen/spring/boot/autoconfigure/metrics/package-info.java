/**
 * Micrometer meters for idgen: {@link IdgenMeterBinder} asks each backend's {@link IdgenGeneratorMeters} for the
 * meters of every generator.
 */
package dev.idgen.spring.boot.autoconfigure.metrics;
