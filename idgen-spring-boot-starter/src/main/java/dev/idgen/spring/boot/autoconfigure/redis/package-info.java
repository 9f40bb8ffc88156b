/**
 * Redis: the {@code redis} strategy (an {@code INCRBY} per call inside windows reserved from a database), and the
 * Redis backend the other strategies may use (segment stores, worker-id leases, readable IDs): their wiring,
 * settings, health and meters. Nothing here is loaded unless Spring Data Redis and Lettuce are on the classpath.
 */
package dev.idgen.spring.boot.autoconfigure.redis;
