/**
 * Ticket servers: a database row update per call (Flickr style); the generator's wiring, its settings, health and
 * meters.
 */
package dev.idgen.spring.boot.autoconfigure.ticket;
