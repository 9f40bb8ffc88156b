package dev.idgen.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.server.ServerHttp.Answer;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;

/**
 * Two servers on one segment table hand out blocks of one name from 4 threads each: no two blocks overlap, and none
 * holds an ID either server issued itself for the name. A server started after both stopped takes its block above
 * all of them: every block was durable when it was answered.
 */
class BlocksAcrossServersTest {

    private static final int THREADS_PER_SERVER = 4;

    private static final int BLOCKS_PER_THREAD = 200;

    private static final String TOKEN = "blocks-token";

    private final String name = "blocks-" + UUID.randomUUID().toString().substring(0, 8);

    @Test
    void blocksFromTwoServersNeverOverlapAndOutliveThem() throws Exception {
        List<String> arguments = new ArrayList<>(ServerApps.segmentsOnMariaDb("idgen_server_test_segment"));
        arguments.add("--idgen.server.clients.taker.token-hash=" + ServerHttp.tokenHash(TOKEN));
        String[] args = arguments.toArray(String[]::new);

        List<long[]> blocks = new ArrayList<>();
        List<Long> ownIds = new ArrayList<>();
        try (ConfigurableApplicationContext one = ServerApps.start(args);
                ConfigurableApplicationContext two = ServerApps.start(args)) {
            List<ServerHttp> servers = Stream.of(one, two)
                    .map(server -> new ServerHttp("http://127.0.0.1:" + ServerApps.port(server)))
                    .toList();
            ExecutorService threads = Executors.newFixedThreadPool(servers.size() * THREADS_PER_SERVER);
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Taken>> taken = new ArrayList<>();
            try {
                for (ServerHttp server : servers) {
                    for (int t = 0; t < THREADS_PER_SERVER; t++) {
                        int thread = t;
                        taken.add(threads.submit(() -> take(server, start, thread)));
                    }
                }
                start.countDown();
                for (Future<Taken> each : taken) {
                    Taken result = each.get(5, TimeUnit.MINUTES);
                    blocks.addAll(result.blocks());
                    ownIds.addAll(result.ownIds());
                }
            } finally {
                threads.shutdownNow();
            }
        }

        assertThat(blocks).hasSize(2 * THREADS_PER_SERVER * BLOCKS_PER_THREAD);
        TreeMap<Long, Long> byFirst = new TreeMap<>();
        long highest = 0;
        for (long[] block : blocks) {
            assertThat(byFirst.put(block[0], block[1]))
                    .as("two blocks start at " + block[0])
                    .isNull();
            highest = Math.max(highest, block[1]);
        }
        long previousLast = 0;
        for (var block : byFirst.entrySet()) {
            assertThat(block.getKey()).as("a block overlaps the one before").isGreaterThan(previousLast);
            previousLast = block.getValue();
        }
        assertThat(ownIds).doesNotHaveDuplicates().isNotEmpty();
        for (long id : ownIds) {
            var below = byFirst.floorEntry(id);
            assertThat(below == null || below.getValue() < id)
                    .as("the server's own ID " + id + " lies in a block " + below)
                    .isTrue();
        }

        try (ConfigurableApplicationContext later = ServerApps.start(args)) {
            ServerHttp http = new ServerHttp("http://127.0.0.1:" + ServerApps.port(later));
            Answer block = http.post("/blocks/" + name + "?size=10", TOKEN);
            assertThat(block.status()).as(block.toString()).isEqualTo(200);
            assertThat(Long.parseLong(block.json().get("first").stringValue())).isGreaterThan(highest);
        }
    }

    private record Taken(List<long[]> blocks, List<Long> ownIds) {}

    private Taken take(ServerHttp server, CountDownLatch start, int thread) throws InterruptedException {
        start.await();
        List<long[]> blocks = new ArrayList<>();
        List<Long> ownIds = new ArrayList<>();
        for (int i = 0; i < BLOCKS_PER_THREAD; i++) {
            Answer answer = server.post("/blocks/" + name + "?size=" + (1 + (i % 7) * 3), TOKEN);
            assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
            JsonNode json = answer.json();
            long first = Long.parseLong(json.get("first").stringValue());
            long last = Long.parseLong(json.get("last").stringValue());
            assertThat(last - first + 1).isEqualTo(json.get("size").asLong());
            blocks.add(new long[] {first, last});
            if (thread == 0 && i % 10 == 0) {
                for (JsonNode id :
                        server.get("/ids/" + name + "?count=20", TOKEN).json()) {
                    ownIds.add(Long.parseLong(id.stringValue()));
                }
            }
        }
        return new Taken(blocks, ownIds);
    }
}
