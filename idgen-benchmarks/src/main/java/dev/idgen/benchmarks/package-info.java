/**
 * JMH benchmarks and measurements of idgen against its peers (CosID, Hutool, UUID and ObjectId libraries), on real
 * Redis and MariaDB; see {@code run.sh}.
 */
package dev.idgen.benchmarks;
