package dev.idgen.server.grpc;

import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.StoreUnavailableException;
import dev.idgen.core.segment.Segment;
import dev.idgen.server.Caller;
import dev.idgen.server.IdgenServerApi;
import dev.idgen.server.ServerRefusal;
import dev.idgen.server.grpc.v1.Block;
import dev.idgen.server.grpc.v1.DecodeRequest;
import dev.idgen.server.grpc.v1.DecodeResponse;
import dev.idgen.server.grpc.v1.IdgenGrpc;
import dev.idgen.server.grpc.v1.NextIdsRequest;
import dev.idgen.server.grpc.v1.NextIdsResponse;
import dev.idgen.server.grpc.v1.TakeBlockRequest;
import io.grpc.Context;
import io.grpc.Deadline;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Service {@code idgen.v1.Idgen}: the gRPC requests mapped onto {@link IdgenServerApi}, its refusals onto status
 * codes. proto3 cannot tell an absent field from its zero: an absent {@code count} means 1, as on HTTP, while an
 * absent {@code size} reaches the API as 0 and is refused naming {@code size}.
 */
final class IdgenGrpcService extends IdgenGrpc.IdgenImplBase {

    static final String TRANSPORT = "grpc";

    /** The key of the trailer naming the request field at fault, for INVALID_ARGUMENT. */
    static final Metadata.Key<String> PARAMETER = Metadata.Key.of("idgen-parameter", Metadata.ASCII_STRING_MARSHALLER);

    /** The key of the trailer saying in how many seconds a rate-limited client may try again. */
    static final Metadata.Key<String> RETRY_AFTER = Metadata.Key.of("retry-after", Metadata.ASCII_STRING_MARSHALLER);

    private final IdgenServerApi api;

    IdgenGrpcService(IdgenServerApi api) {
        this.api = api;
    }

    @Override
    public void nextIds(NextIdsRequest request, StreamObserver<NextIdsResponse> responses) {
        answer(responses, () -> {
            Caller caller = caller();
            int count = request.getCount() == 0 ? 1 : request.getCount();
            String shardKey = request.getShardKey().isEmpty() ? null : request.getShardKey();
            IdgenServerApi.IssuedIds issued = api.nextIds(caller, request.getName(), count, shardKey);
            NextIdsResponse.Builder response = NextIdsResponse.newBuilder().addAllIds(issued.texts());
            if (issued.numbers() != null) {
                for (long id : issued.numbers()) {
                    response.addNumbers(id);
                }
            }
            return response.build();
        });
    }

    @Override
    public void decode(DecodeRequest request, StreamObserver<DecodeResponse> responses) {
        answer(responses, () -> {
            Map<String, Object> parts = api.decode(caller(), request.getName(), request.getId());
            DecodeResponse.Builder response = DecodeResponse.newBuilder();
            parts.forEach((key, value) -> response.putParts(key, text(value)));
            return response.build();
        });
    }

    @Override
    public void takeBlock(TakeBlockRequest request, StreamObserver<Block> responses) {
        answer(responses, () -> {
            Segment block = api.takeBlock(caller(), request.getName(), request.getSize(), request.getAbove());
            return Block.newBuilder()
                    .setName(request.getName())
                    .setFirst(block.first())
                    .setLast(block.last())
                    .build();
        });
    }

    /** The authenticated caller, with the call's deadline: no store work outlives what the caller waits for. */
    private Caller caller() {
        Caller caller = api.authenticate(AuthorizationInterceptor.AUTHORIZATION.get(), TRANSPORT);
        Deadline deadline = Context.current().getDeadline();
        if (deadline == null) {
            return caller;
        }
        // A deadline days away is none: the server's own request timeout is shorter, and nanoTime must not overflow.
        long remaining = Math.min(deadline.timeRemaining(TimeUnit.NANOSECONDS), TimeUnit.DAYS.toNanos(1));
        return caller.withDeadline(System.nanoTime() + remaining);
    }

    private static String text(Object value) {
        return value instanceof Instant instant ? instant.toString() : String.valueOf(value);
    }

    /**
     * Answers with the value, or with the status the failure maps to. Only the refusals the API defines and the
     * core's argument and store failures are mapped; anything else is INTERNAL without its message, as on HTTP.
     */
    private static <T> void answer(StreamObserver<T> responses, Supplier<T> call) {
        T value;
        try {
            value = call.get();
        } catch (ServerRefusal refusal) {
            responses.onError(status(refusal));
            return;
        } catch (InvalidArgumentException e) {
            responses.onError(Status.INVALID_ARGUMENT
                    .withDescription(e.getMessage())
                    .asRuntimeException(parameter(e.argument())));
            return;
        } catch (StoreUnavailableException e) {
            responses.onError(Status.UNAVAILABLE.withDescription(e.getMessage()).asRuntimeException());
            return;
        } catch (RuntimeException e) {
            responses.onError(
                    Status.INTERNAL.withDescription("idgen server error").asRuntimeException());
            return;
        }
        responses.onNext(value);
        responses.onCompleted();
    }

    static StatusRuntimeException status(ServerRefusal refusal) {
        Status status = switch (refusal.reason()) {
            case BAD_ARGUMENT -> Status.INVALID_ARGUMENT;
            case UNAUTHENTICATED -> Status.UNAUTHENTICATED;
            case FORBIDDEN -> Status.PERMISSION_DENIED;
            case NOT_FOUND -> Status.NOT_FOUND;
            case RATE_LIMITED, TOO_MANY_NAMES -> Status.RESOURCE_EXHAUSTED;
            case UNAVAILABLE -> Status.UNAVAILABLE;
            case OVERLOADED -> Status.RESOURCE_EXHAUSTED;
        };
        Metadata trailers = parameter(refusal.parameter());
        if (refusal.retryAfter() != null) {
            // Whole seconds, rounded up, as HTTP's Retry-After.
            long seconds = Math.max(1, (refusal.retryAfter().toMillis() + 999) / 1000);
            trailers.put(RETRY_AFTER, Long.toString(seconds));
        }
        return status.withDescription(refusal.getMessage()).asRuntimeException(trailers);
    }

    private static Metadata parameter(String parameter) {
        Metadata trailers = new Metadata();
        if (parameter != null) {
            trailers.put(PARAMETER, parameter);
        }
        return trailers;
    }
}
