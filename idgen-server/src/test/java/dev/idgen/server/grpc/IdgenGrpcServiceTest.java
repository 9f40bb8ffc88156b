package dev.idgen.server.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.InstanceOfAssertFactories.type;

import dev.idgen.server.grpc.v1.Block;
import dev.idgen.server.grpc.v1.DecodeRequest;
import dev.idgen.server.grpc.v1.DecodeResponse;
import dev.idgen.server.grpc.v1.IdgenGrpc;
import dev.idgen.server.grpc.v1.NextIdsRequest;
import dev.idgen.server.grpc.v1.NextIdsResponse;
import dev.idgen.server.grpc.v1.TakeBlockRequest;
import dev.idgen.test.services.TestServices;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.reflection.v1.ServerReflectionGrpc;
import io.grpc.reflection.v1.ServerReflectionRequest;
import io.grpc.reflection.v1.ServerReflectionResponse;
import io.grpc.stub.MetadataUtils;
import io.grpc.stub.StreamObserver;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The gRPC face on a real server: a Snowflake default generator and a segment generator {@code blocks} over MariaDB,
 * two clients with tokens of their own, one limited to {@code orders}.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class IdgenGrpcServiceTest {

    static final String TOKEN = "grpc-test-token";

    static final String NARROW_TOKEN = "grpc-test-orders-only";

    private static final String TABLE =
            "idgen_grpc_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        TestServices.JdbcEndpoint mariadb = TestServices.mariadb();
        registry.add("spring.datasource.url", mariadb::url);
        registry.add("spring.datasource.username", mariadb::username);
        registry.add("spring.datasource.password", mariadb::password);
        registry.add("idgen.server.grpc.port", () -> "0");
        registry.add("idgen.server.clients.full.token-hash", () -> hash(TOKEN));
        registry.add("idgen.server.clients.narrow.token-hash", () -> hash(NARROW_TOKEN));
        registry.add("idgen.server.clients.narrow.names", () -> "orders");
        registry.add("idgen.generators.blocks.strategy", () -> "segment");
        registry.add("idgen.generators.blocks.jdbc.table", () -> TABLE);
        registry.add("idgen.generators.blocks.jdbc.initialize-schema", () -> "always");
    }

    static String hash(String token) {
        try {
            return "sha256:"
                    + HexFormat.of()
                            .formatHex(MessageDigest.getInstance("SHA-256")
                                    .digest(token.getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Autowired
    GrpcServerLifecycle server;

    private ManagedChannel channel;

    @BeforeEach
    void connect() {
        channel = NettyChannelBuilder.forAddress("127.0.0.1", server.port())
                .usePlaintext()
                .build();
    }

    @AfterEach
    void disconnect() throws InterruptedException {
        channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
    }

    private IdgenGrpc.IdgenBlockingStub idgen(String token) {
        Metadata headers = new Metadata();
        headers.put(Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER), "Bearer " + token);
        return IdgenGrpc.newBlockingStub(channel)
                .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers))
                .withDeadlineAfter(30, TimeUnit.SECONDS);
    }

    @Test
    void servesIdsAsTextAndNumbersAndDecodesThem() {
        NextIdsResponse ids = idgen(TOKEN)
                .nextIds(NextIdsRequest.newBuilder()
                        .setName("orders")
                        .setCount(3)
                        .build());
        assertThat(ids.getIdsList()).hasSize(3).doesNotHaveDuplicates();
        assertThat(ids.getNumbersList())
                .containsExactlyElementsOf(
                        ids.getIdsList().stream().map(Long::valueOf).toList());

        DecodeResponse parts = idgen(TOKEN)
                .decode(DecodeRequest.newBuilder()
                        .setName("orders")
                        .setId(ids.getIds(0))
                        .build());
        assertThat(parts.getPartsMap()).containsEntry("id", ids.getIds(0)).containsKeys("timestamp", "workerId");
    }

    @Test
    void anAbsentCountMeansOneAsOnHttp() {
        assertThat(idgen(TOKEN)
                        .nextIds(NextIdsRequest.newBuilder().setName("orders").build())
                        .getIdsCount())
                .isEqualTo(1);
    }

    @Test
    void blocksOfASegmentNameAreDisjointAndLieAboveWhatTheCallerServed() {
        List<Block> blocks = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            blocks.add(idgen(TOKEN)
                    .takeBlock(TakeBlockRequest.newBuilder()
                            .setName("blocks")
                            .setSize(100)
                            .build()));
        }
        for (Block block : blocks) {
            assertThat(block.getName()).isEqualTo("blocks");
            assertThat(block.getLast() - block.getFirst() + 1).isEqualTo(100);
        }
        for (int i = 0; i < blocks.size(); i++) {
            for (int j = i + 1; j < blocks.size(); j++) {
                Block a = blocks.get(i);
                Block b = blocks.get(j);
                assertThat(a.getLast() < b.getFirst() || b.getLast() < a.getFirst())
                        .as("blocks %s and %s overlap", a, b)
                        .isTrue();
            }
        }
        long highest = blocks.stream().mapToLong(Block::getLast).max().orElseThrow();
        Block above = idgen(TOKEN)
                .takeBlock(TakeBlockRequest.newBuilder()
                        .setName("blocks")
                        .setSize(10)
                        .setAbove(highest + 5000)
                        .build());
        assertThat(above.getFirst()).isGreaterThan(highest + 5000);
    }

    @Test
    void refusalsCarryTheirStatusAndNameTheField() {
        assertRefused(
                () -> idgen(TOKEN)
                        .nextIds(NextIdsRequest.newBuilder()
                                .setName("orders")
                                .setCount(-1)
                                .build()),
                Status.Code.INVALID_ARGUMENT,
                "count");
        assertRefused(
                () -> idgen(TOKEN)
                        .nextIds(NextIdsRequest.newBuilder()
                                .setName("orders")
                                .setCount(1_000_000)
                                .build()),
                Status.Code.INVALID_ARGUMENT,
                "count");
        assertRefused(
                () -> idgen(TOKEN)
                        .nextIds(
                                NextIdsRequest.newBuilder().setName("no spaces").build()),
                Status.Code.INVALID_ARGUMENT,
                "name");
        assertRefused(
                () -> idgen(TOKEN)
                        .takeBlock(
                                TakeBlockRequest.newBuilder().setName("blocks").build()),
                Status.Code.INVALID_ARGUMENT,
                "size");
        assertRefused(
                () -> idgen(TOKEN)
                        .takeBlock(TakeBlockRequest.newBuilder()
                                .setName("blocks")
                                .setSize(10)
                                .setAbove(-1)
                                .build()),
                Status.Code.INVALID_ARGUMENT,
                "above");
        assertRefused(
                () -> idgen(TOKEN)
                        .decode(DecodeRequest.newBuilder()
                                .setName("orders")
                                .setId("x")
                                .build()),
                Status.Code.INVALID_ARGUMENT,
                "id");
        assertRefused(
                () -> idgen(TOKEN)
                        .takeBlock(TakeBlockRequest.newBuilder()
                                .setName("orders")
                                .setSize(10)
                                .build()),
                Status.Code.NOT_FOUND,
                null);
        assertRefused(
                () -> idgen("not-a-token")
                        .nextIds(NextIdsRequest.newBuilder().setName("orders").build()),
                Status.Code.UNAUTHENTICATED,
                null);
        assertRefused(
                () -> IdgenGrpc.newBlockingStub(channel)
                        .withDeadlineAfter(30, TimeUnit.SECONDS)
                        .nextIds(NextIdsRequest.newBuilder().setName("orders").build()),
                Status.Code.UNAUTHENTICATED,
                null);
        assertRefused(
                () -> idgen(NARROW_TOKEN)
                        .takeBlock(TakeBlockRequest.newBuilder()
                                .setName("blocks")
                                .setSize(10)
                                .build()),
                Status.Code.PERMISSION_DENIED,
                null);
        assertThat(idgen(NARROW_TOKEN)
                        .nextIds(NextIdsRequest.newBuilder().setName("orders").build())
                        .getIdsCount())
                .isEqualTo(1);
    }

    private static void assertRefused(Runnable call, Status.Code code, String parameter) {
        assertThatThrownBy(call::run)
                .asInstanceOf(type(StatusRuntimeException.class))
                .satisfies(refused -> {
                    assertThat(refused.getStatus().getCode()).isEqualTo(code);
                    assertThat(refused.getStatus().getDescription()).isNotBlank();
                    Metadata trailers = refused.getTrailers();
                    String named = trailers == null ? null : trailers.get(IdgenGrpcService.PARAMETER);
                    assertThat(named).isEqualTo(parameter);
                    if (parameter != null) {
                        assertThat(refused.getStatus().getDescription()).contains(parameter);
                    }
                });
    }

    @Test
    void serverReflectionAnswersOnlyWithAToken() throws Exception {
        assertThat(listServices(null)).isEqualTo("UNAUTHENTICATED");
        assertThat(listServices("not-a-token")).isEqualTo("UNAUTHENTICATED");
        assertThat(listServices(TOKEN)).contains("idgen.v1.Idgen");
    }

    /** @return the services reflection lists, or the status code it refused with */
    private String listServices(String token) throws Exception {
        ServerReflectionGrpc.ServerReflectionStub reflection = ServerReflectionGrpc.newStub(channel);
        if (token != null) {
            Metadata headers = new Metadata();
            headers.put(Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER), "Bearer " + token);
            reflection = reflection.withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers));
        }
        CompletableFuture<String> answer = new CompletableFuture<>();
        StreamObserver<ServerReflectionRequest> requests = reflection
                .withDeadlineAfter(30, TimeUnit.SECONDS)
                .serverReflectionInfo(new StreamObserver<>() {
                    @Override
                    public void onNext(ServerReflectionResponse response) {
                        answer.complete(response.getListServicesResponse()
                                .getServiceList()
                                .toString());
                    }

                    @Override
                    public void onError(Throwable t) {
                        answer.complete(Status.fromThrowable(t).getCode().name());
                    }

                    @Override
                    public void onCompleted() {
                        answer.complete("completed without an answer");
                    }
                });
        requests.onNext(
                ServerReflectionRequest.newBuilder().setListServices("*").build());
        requests.onCompleted();
        return answer.get(1, TimeUnit.MINUTES);
    }

    @Test
    void answersTheStandardHealthCheck() {
        HealthCheckResponse health = HealthGrpc.newBlockingStub(channel)
                .withDeadlineAfter(30, TimeUnit.SECONDS)
                .check(HealthCheckRequest.newBuilder()
                        .setService("idgen.v1.Idgen")
                        .build());
        assertThat(health.getStatus()).isEqualTo(HealthCheckResponse.ServingStatus.SERVING);
    }
}
