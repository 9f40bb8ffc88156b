/**
 * Segments: blocks of IDs leased from a database (or Redis) and served from memory; the generator's wiring, its
 * settings, the segment servers, health and meters.
 */
package dev.idgen.spring.boot.autoconfigure.segment;
