/**
 * A sample Spring Boot service that issues IDs over HTTP with the idgen starter, with problem+json error replies.
 */
package dev.idgen.samples;
