/** The server's gRPC face: service idgen.v1.Idgen over the transport-neutral server API. */
package dev.idgen.server.grpc;
