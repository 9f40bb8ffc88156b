package dev.idgen.server.grpc;

import dev.idgen.server.IdgenServerApi;
import dev.idgen.server.ServerRefusal;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;

/**
 * Lets a call through only with a token some client has (or none, when the server lets requests in without one):
 * for the services beside {@code idgen.v1.Idgen} that would otherwise answer anyone, such as server reflection,
 * which lists the API to whoever connects. A refused call is closed at once with UNAUTHENTICATED, before any message
 * is read.
 */
final class TokenRequired implements ServerInterceptor {

    private static final Metadata.Key<String> HEADER =
            Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);

    private final IdgenServerApi api;

    TokenRequired(IdgenServerApi api) {
        this.api = api;
    }

    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(
            ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
        try {
            api.authenticate(headers.get(HEADER), IdgenGrpcService.TRANSPORT);
        } catch (ServerRefusal refusal) {
            call.close(IdgenGrpcService.status(refusal).getStatus(), new Metadata());
            return new ServerCall.Listener<>() {};
        }
        return next.startCall(call, headers);
    }
}
