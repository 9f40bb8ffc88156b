package dev.idgen.server.grpc;

import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;

/**
 * Hands a call's {@code authorization} metadata to the service through the call's {@link Context}; the service checks
 * it with the same {@link dev.idgen.server.IdgenServerApi#authenticate} as HTTP, so both faces accept the same tokens.
 */
final class AuthorizationInterceptor implements ServerInterceptor {

    static final Context.Key<String> AUTHORIZATION = Context.key("idgen-authorization");

    private static final Metadata.Key<String> HEADER =
            Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);

    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(
            ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
        Context context = Context.current().withValue(AUTHORIZATION, headers.get(HEADER));
        return Contexts.interceptCall(context, call, headers, next);
    }
}
