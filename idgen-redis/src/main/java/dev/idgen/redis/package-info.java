/**
 * Redis backends over Lettuce (standalone, Sentinel or Cluster): counters, segment and worker id lease stores, and
 * bucketed sequences for readable IDs.
 */
package dev.idgen.redis;
