package dev.idgen.server.grpc;

import org.springframework.boot.ssl.SslBundle;

/**
 * The TLS gRPC serves.
 *
 * @param bundle the key (and trust) gRPC serves with
 * @param requireClientCertificate whether clients must present a certificate the bundle trusts (mutual TLS)
 */
record GrpcTls(SslBundle bundle, boolean requireClientCertificate) {}
