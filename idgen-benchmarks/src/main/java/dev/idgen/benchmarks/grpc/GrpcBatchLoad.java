package dev.idgen.benchmarks.grpc;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.CodedOutputStream;
import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.MetadataUtils;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Batches over gRPC for {@code leaf.sh}: {@code idgen.v1.Idgen/NextIds} with a fixed count from N concurrent calls
 * (blocking, one thread each, over one channel as a client application would hold it) for fixed windows, after a
 * warm-up. It runs on the idgen server jar's classpath (Spring Boot's {@code PropertiesLauncher}), whose gRPC and
 * protobuf it uses; the messages are written and read by hand, so the server's generated stubs are not needed to
 * compile it. Prints one line per window: {@code RESULT <calls/s> <IDs/s> <p50 us> <p99 us> <errors>}.
 *
 * <pre>
 * GrpcBatchLoad host port token name count concurrency warmupSeconds seconds windows
 * </pre>
 */
public final class GrpcBatchLoad {

    private static final MethodDescriptor<Request, Integer> NEXT_IDS = MethodDescriptor.<Request, Integer>newBuilder()
            .setType(MethodDescriptor.MethodType.UNARY)
            .setFullMethodName(MethodDescriptor.generateFullMethodName("idgen.v1.Idgen", "NextIds"))
            .setRequestMarshaller(new RequestMarshaller())
            .setResponseMarshaller(new IdCounter())
            .build();

    private GrpcBatchLoad() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 9) {
            System.err.println(
                    "usage: GrpcBatchLoad host port token name count concurrency warmupSeconds seconds" + " windows");
            System.exit(2);
        }
        Request request = new Request(args[3], Integer.parseInt(args[4]));
        int concurrency = Integer.parseInt(args[5]);
        long warmup = TimeUnit.SECONDS.toNanos(Long.parseLong(args[6]));
        long window = TimeUnit.SECONDS.toNanos(Long.parseLong(args[7]));
        int windows = Integer.parseInt(args[8]);
        Metadata headers = new Metadata();
        headers.put(Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER), "Bearer " + args[2]);
        ManagedChannel channel = ManagedChannelBuilder.forAddress(args[0], Integer.parseInt(args[1]))
                .usePlaintext()
                .intercept(MetadataUtils.newAttachHeadersInterceptor(headers))
                .build();
        try {
            run(channel, request, concurrency, warmup);
            for (int w = 0; w < windows; w++) {
                Window result = run(channel, request, concurrency, window);
                System.out.printf(
                        "RESULT %.0f %.0f %d %d %d%n",
                        result.calls * 1e9 / window,
                        result.ids * 1e9 / window,
                        result.percentile(50),
                        result.percentile(99),
                        result.errors);
            }
        } finally {
            channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
    }

    private static Window run(ManagedChannel channel, Request request, int concurrency, long nanos)
            throws InterruptedException {
        long end = System.nanoTime() + nanos;
        LongAdder ids = new LongAdder();
        AtomicLong errors = new AtomicLong();
        long[][] latencies = new long[concurrency][];
        int[] calls = new int[concurrency];
        Thread[] threads = new Thread[concurrency];
        for (int t = 0; t < concurrency; t++) {
            int slot = t;
            threads[t] = new Thread(() -> {
                long[] mine = new long[1024];
                int n = 0;
                for (long start = System.nanoTime(); start < end; start = System.nanoTime()) {
                    try {
                        // A response that is not the count asked for is an error, not a smaller batch.
                        int got = ClientCalls.blockingUnaryCall(channel, NEXT_IDS, CallOptions.DEFAULT, request);
                        if (got == request.count) {
                            ids.add(got);
                        } else {
                            errors.incrementAndGet();
                        }
                    } catch (RuntimeException e) {
                        if (errors.getAndIncrement() == 0) {
                            System.err.println("first failed call: " + e);
                        }
                    }
                    if (n == mine.length) {
                        mine = Arrays.copyOf(mine, n * 2);
                    }
                    mine[n++] = System.nanoTime() - start;
                }
                latencies[slot] = mine;
                calls[slot] = n;
            });
            threads[t].start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        int total = Arrays.stream(calls).sum();
        long[] all = new long[total];
        int at = 0;
        for (int t = 0; t < concurrency; t++) {
            System.arraycopy(latencies[t], 0, all, at, calls[t]);
            at += calls[t];
        }
        Arrays.sort(all);
        return new Window(total, ids.sum(), errors.get(), all);
    }

    private record Window(long calls, long ids, long errors, long[] sortedNanos) {

        long percentile(double p) {
            if (sortedNanos.length == 0) {
                return 0;
            }
            int index = (int) Math.ceil(p / 100 * sortedNanos.length) - 1;
            return sortedNanos[Math.max(0, index)] / 1000;
        }
    }

    private record Request(String name, int count) {}

    /** NextIdsRequest: field 1 name, field 2 count. */
    private static final class RequestMarshaller implements MethodDescriptor.Marshaller<Request> {

        @Override
        public InputStream stream(Request request) {
            try {
                ByteArrayOutputStream bytes = new ByteArrayOutputStream();
                CodedOutputStream out = CodedOutputStream.newInstance(bytes);
                out.writeString(1, request.name);
                out.writeInt32(2, request.count);
                out.flush();
                return new ByteArrayInputStream(bytes.toByteArray());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public Request parse(InputStream stream) {
            throw new UnsupportedOperationException("a client does not read requests");
        }
    }

    /** NextIdsResponse read only as far as the number of its ids (field 1); the rest is skipped. */
    private static final class IdCounter implements MethodDescriptor.Marshaller<Integer> {

        @Override
        public InputStream stream(Integer value) {
            throw new UnsupportedOperationException("a client does not write responses");
        }

        @Override
        public Integer parse(InputStream stream) {
            try {
                CodedInputStream in = CodedInputStream.newInstance(stream);
                int ids = 0;
                for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
                    if (tag >>> 3 == 1) {
                        ids++;
                    }
                    in.skipField(tag);
                }
                return ids;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
