package dev.idgen.client;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * Reads a body as UTF-8 up to {@value #MAX_BODY} bytes and fails beyond, so that a faulty server or proxy cannot
 * fill the heap.
 */
final class LimitedBody implements HttpResponse.BodySubscriber<String> {

    /** The largest body read: a block or a problem is a few hundred bytes, and a larger one is a fault. */
    static final int MAX_BODY = 64 * 1024;

    private final CompletableFuture<String> result = new CompletableFuture<>();

    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

    private Flow.Subscription subscription;

    @Override
    public CompletionStage<String> getBody() {
        return result;
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
        this.subscription = subscription;
        subscription.request(Long.MAX_VALUE);
    }

    @Override
    public void onNext(List<ByteBuffer> items) {
        for (ByteBuffer item : items) {
            if (result.isDone()) {
                return; // cancelled: what still arrives is dropped
            }
            if (bytes.size() + item.remaining() > MAX_BODY) {
                subscription.cancel();
                result.completeExceptionally(new IOException("body longer than " + MAX_BODY + " bytes"));
                return;
            }
            byte[] chunk = new byte[item.remaining()];
            item.get(chunk);
            bytes.write(chunk, 0, chunk.length);
        }
    }

    @Override
    public void onError(Throwable throwable) {
        result.completeExceptionally(throwable);
    }

    @Override
    public void onComplete() {
        result.complete(bytes.toString(StandardCharsets.UTF_8));
    }
}
