/** The load driver leaf.sh runs against the idgen server's gRPC face. */
package dev.idgen.benchmarks.grpc;
