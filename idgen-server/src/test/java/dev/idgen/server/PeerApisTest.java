package dev.idgen.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.server.ServerHttp.Answer;
import dev.idgen.server.access.NanoClock;
import dev.idgen.test.services.TestServices;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * Leaf's and Tinyid's HTTP APIs on a real server and a real MariaDB, each answer compared with what Leaf 1.0.1 and
 * Tinyid answered (peers/*.txt). The default generator hands out segments, {@code snow} is Snowflake and behind Leaf's
 * Snowflake path. Clients: {@code app} (every name), {@code tiny} (Tinyid's recorded token; the biz types
 * {@code small}, {@link #BIZ} and {@code snow}); Leaf's requests without a token may use {@link #OPEN} and
 * {@code snow}, at 5 requests per second on a clock the test moves.
 */
@SpringBootTest(
        classes = IdgenServerApplication.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "idgen.strategy=segment",
            "idgen.segment.step=100",
            "idgen.jdbc.table=" + PeerApisTest.TABLE,
            "idgen.jdbc.initialize-schema=always",
            "idgen.generators.snow.strategy=snowflake",
            "idgen.server.max-count=50",
            "idgen.server.request-timeout=2s",
            "idgen.server.compat.leaf.enabled=true",
            "idgen.server.compat.leaf.snowflake-generator=snow",
            "idgen.server.compat.leaf.tokenless-rate-limit=5",
            "idgen.server.compat.tinyid.enabled=true",
            "idgen.server.compat.tinyid.segment-size=100",
        })
@Import(PeerApisTest.FakeClock.class)
class PeerApisTest {

    static final String TABLE = "idgen_peer_apis_test";

    static final String APP = "app-token";

    /** The token Tinyid's own client sent in the recording (raw/tinyid-client-wire.txt). */
    static final String TINY = "0f673adf80504e2eaa552f5d791b644c";

    /** This run's names: the table outlives the test. */
    static final String RUN = UUID.randomUUID().toString().substring(0, 8);

    /** Tokenless on Leaf's paths; a dot in it, which Leaf would have cut the key at. */
    static final String OPEN = "dot.ted-" + RUN;

    static final String BIZ = "biz-" + RUN;

    static final AtomicLong NANOS = new AtomicLong(1_000_000_000_000L);

    /** What Tinyid's Java client sent, byte for byte (raw/tinyid-client-wire.txt), Host and all. */
    static final String TINYID_CLIENT_REQUEST =
            "POST /tinyid/id/nextSegmentIdSimple?token=0f673adf80504e2eaa552f5d791b644c"
                    + "&bizType=small HTTP/1.1\r\nCache-Control: no-cache\r\nPragma: no-cache\r\nUser-Agent: Java/17.0.15\r\n"
                    + "Host: 127.0.0.1:19990\r\nAccept: text/html, image/gif, image/jpeg, */*; q=0.2\r\n"
                    + "Connection: keep-alive\r\nContent-type: application/x-www-form-urlencoded\r\nContent-Length: 0\r\n\r\n";

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        TestServices.JdbcEndpoint mariadb = TestServices.mariadb();
        registry.add("spring.datasource.url", mariadb::url);
        registry.add("spring.datasource.username", mariadb::username);
        registry.add("spring.datasource.password", mariadb::password);
        registry.add("idgen.server.clients.app.token-hash", () -> ServerHttp.tokenHash(APP));
        registry.add("idgen.server.clients.tiny.token-hash", () -> ServerHttp.tokenHash(TINY));
        registry.add("idgen.server.clients.tiny.names", () -> "small," + BIZ + ",snow");
        registry.add("idgen.server.compat.leaf.tokenless-names", () -> OPEN + ",snow");
        // Tinyid's own token table, as Tinyid's DDL makes it, read at start-up.
        try (Connection connection = mariadb.connect();
                Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE " + TOKEN_TABLE + " (id int(11) unsigned NOT NULL AUTO_INCREMENT, token"
                    + " varchar(255) NOT NULL DEFAULT '', biz_type varchar(63) NOT NULL DEFAULT '', remark varchar(255)"
                    + " NOT NULL DEFAULT '', create_time timestamp NOT NULL DEFAULT '2010-01-01 00:00:00', update_time"
                    + " timestamp NOT NULL DEFAULT '2010-01-01 00:00:00', PRIMARY KEY (id)) ENGINE=InnoDB");
            statement.execute("INSERT INTO " + TOKEN_TABLE + " (token, biz_type, remark) VALUES ('" + TABLE_TOKEN
                    + "', '" + TABLE_BIZ + "', 'test')");
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        registry.add("idgen.server.compat.tinyid.token-table", () -> TOKEN_TABLE);
    }

    static final String TOKEN_TABLE = "tiny_id_token_" + RUN.replace("-", "");

    /** A token only Tinyid's token table knows, for {@link #TABLE_BIZ} only. */
    static final String TABLE_TOKEN = "table-token-" + RUN;

    static final String TABLE_BIZ = "table-biz-" + RUN;

    @AfterAll
    static void dropTokenTable() throws SQLException {
        try (Connection connection = TestServices.mariadb().connect();
                Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS " + TOKEN_TABLE);
        }
    }

    @Test
    void tinyidsOwnTokenTableLetsItsTokensInForTheirBizTypesOnly() {
        Answer ids = tinyid("nextIdSimple", "bizType=" + TABLE_BIZ + "&token=" + TABLE_TOKEN + "&batchSize=3");
        assertThat(ids.status()).isEqualTo(200);
        assertThat(ids.response().body()).matches("\\d+,\\d+,\\d+");
        assertThat(tinyid("nextIdSimple", "bizType=" + BIZ + "&token=" + TABLE_TOKEN)
                        .response()
                        .body())
                .as("a biz type the token's rows do not list")
                .isEmpty();
        assertThat(tinyid("nextIdSimple", "bizType=" + TABLE_BIZ + "&token=" + TINY)
                        .response()
                        .body())
                .as("an idgen client's token keeps its own names only")
                .isEmpty();
    }

    @TestConfiguration
    static class FakeClock {

        @Bean
        NanoClock testNanoClock() {
            return NANOS::get;
        }
    }

    @LocalServerPort
    int port;

    ServerHttp http;

    @BeforeEach
    void setUp() {
        http = new ServerHttp("http://127.0.0.1:" + port);
        // A full bucket for the requests without a token.
        NANOS.addAndGet(TimeUnit.SECONDS.toNanos(10));
    }

    // --- Leaf ---------------------------------------------------------------------------------------------------

    @Test
    void leafSegmentAnswersABareDecimalAsLeafDid() {
        String name = "leaf-" + RUN;
        Answer first = http.get("/api/segment/get/" + name, APP);
        assertLike("leaf-seg-get-existing-1", first);
        Answer second = http.get("/api/segment/get/" + name, APP);
        assertThat(Long.parseLong(second.response().body()))
                .isEqualTo(Long.parseLong(first.response().body()) + 1);
    }

    @Test
    void leafKeyIsTheWholeKeyDotsAndAll() {
        // Leaf would have served 'dot', a name the tokenless client may not use: the whole key is the name.
        Answer answer = http.get("/api/segment/get/" + OPEN, null);
        assertLike("leaf-seg-get-existing-1", answer);
        // Spring's guard against reflected file downloads, as Leaf's answer for an unknown "extension" had it.
        assertThat(answer.header("Content-Disposition")).isEqualTo("inline;filename=f.txt");
        // A trailing slash is no other spelling of the key.
        assertThat(http.get("/api/segment/get/" + OPEN + "/", APP).status()).isEqualTo(404);
    }

    @Test
    void leafUnknownKeyAnswersLeafsMinusTwo() {
        // Without a token, a name outside the tokenless list: Leaf's "not in cache", nothing said about the name.
        Answer outside = http.get("/api/segment/get/not-listed-" + RUN, null);
        assertLike("leaf-seg-get-unknown", outside);
        assertThat(outside.json().get("message").stringValue()).isEqualTo("Result{id=-2, status=EXCEPTION}");
        assertThat(outside.json().get("path").stringValue()).isEqualTo("/api/segment/get/not-listed-" + RUN);
        // With a token, a key that is no name.
        Answer invalid = http.get("/api/segment/get/a%20b", APP);
        assertLike("leaf-seg-get-unknown", invalid);
        assertThat(invalid.json().get("message").stringValue()).isEqualTo("Result{id=-2, status=EXCEPTION}");
    }

    @Test
    void leafStoreDownAnswersLeafsMinusThree() throws Exception {
        String name = "down-" + RUN;
        try (Connection connection = TestServices.mariadb().connect();
                Statement sql = connection.createStatement()) {
            sql.execute("RENAME TABLE " + TABLE + " TO " + TABLE + "_off");
            try {
                Answer answer = http.get("/api/segment/get/" + name, APP);
                assertLike("leaf-seg-get-dbdown-exhausted", answer);
                assertThat(answer.json().get("message").stringValue()).isEqualTo("Result{id=-3, status=EXCEPTION}");
            } finally {
                sql.execute("RENAME TABLE " + TABLE + "_off TO " + TABLE);
            }
        }
        assertLike("leaf-seg-get-existing-1", http.get("/api/segment/get/" + name, APP));
    }

    @Test
    void leafSnowflakeIgnoresTheKeyAndDecodesAsLeafDid() {
        Answer snow = http.get("/api/snowflake/get/anything", null);
        assertLike("leaf-snowflake-get", snow);
        assertThat(http.get("/api/snowflake/get/other", APP).status()).isEqualTo(200);

        Answer decoded =
                http.get("/decodeSnowflakeId?snowflakeId=" + snow.response().body(), APP);
        assertLike("leaf-decode", decoded);
        assertThat(decoded.json().get("timestamp").stringValue())
                .matches("[0-9]{13}\\([0-9]{4}-[0-9]{2}-[0-9]{2} " + "[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3}\\)");
        assertThat(decoded.json().get("workerId").stringValue()).isEqualTo("0");

        Answer bad = http.get("/decodeSnowflakeId?snowflakeId=abc", APP);
        assertLike("leaf-decode-nonnumber", bad);
        assertThat(bad.response().body())
                .isEqualTo(PeerAnswer.recorded("leaf-decode-nonnumber").body());
        assertThat(http.get("/decodeSnowflakeId", APP).status()).isEqualTo(400);
    }

    @Test
    void leafHeadUsesUpNoIdAndOtherMethodsAreNotServed() {
        String path = "/api/segment/get/head-" + RUN;
        long before = Long.parseLong(http.get(path, APP).response().body());
        Answer head = http.send(http.request(path, APP).method("HEAD", HttpRequest.BodyPublishers.noBody()));
        assertThat(head.status()).isEqualTo(200);
        assertThat(head.contentType()).isEqualTo("text/plain;charset=UTF-8");
        assertThat(head.response().body()).isEmpty();
        assertThat(Long.parseLong(http.get(path, APP).response().body())).isEqualTo(before + 1);
        assertThat(http.post(path, APP).status()).isEqualTo(405);
        assertThat(http.send(http.request(path, APP).PUT(HttpRequest.BodyPublishers.noBody()))
                        .status())
                .isEqualTo(405);
        assertThat(Long.parseLong(http.get(path, APP).response().body())).isEqualTo(before + 2);
    }

    @Test
    void tokenlessNeverReachesIdgensOwnPaths() {
        assertThat(http.get("/ids/" + OPEN, null).status()).isEqualTo(401);
        assertThat(http.post("/blocks/" + OPEN + "?size=10", null).status()).isEqualTo(401);
        // A wrong token is still wrong on Leaf's paths, not tokenless.
        assertThat(http.get("/api/segment/get/" + OPEN, "made-up").status()).isEqualTo(401);
    }

    @Test
    void tokenlessRequestsHaveTheirOwnRateLimit() {
        List<Integer> statuses = new ArrayList<>();
        Answer limited = null;
        for (int i = 0; i < 6; i++) {
            Answer answer = http.get("/api/segment/get/" + OPEN, null);
            statuses.add(answer.status());
            limited = answer;
        }
        assertThat(statuses).containsExactly(200, 200, 200, 200, 200, 429);
        assertThat(limited.header("Retry-After")).isEqualTo("1");
        // Another client's requests are not counted against it.
        assertThat(http.get("/api/segment/get/" + OPEN, APP).status()).isEqualTo(200);
    }

    // --- Tinyid -------------------------------------------------------------------------------------------------

    @Test
    void tinyidNextIdAnswersAsTinyidDid() {
        Answer one = tinyid("nextId", "bizType=" + BIZ + "&token=" + TINY);
        assertLike("tinyid-nextId", one);
        assertThat(one.json().get("data")).hasSize(1);
        Answer three = tinyid("nextId", "bizType=" + BIZ + "&token=" + TINY + "&batchSize=3");
        assertLike("tinyid-nextId-batch3", three);
        assertThat(three.json().get("data")).hasSize(3);
        assertLike("tinyid-nextId-batch0", tinyid("nextId", "bizType=" + BIZ + "&token=" + TINY + "&batchSize=0"));
        assertLike("tinyid-nextId-batch0", tinyid("nextId", "bizType=" + BIZ + "&token=" + TINY + "&batchSize=-1"));
        // Above idgen.server.max-count (50 here): capped, where Tinyid capped at its batch.size.max.
        assertThat(tinyid("nextId", "bizType=" + BIZ + "&token=" + TINY + "&batchSize=100000")
                        .json()
                        .get("data"))
                .hasSize(50);
        assertThat(tinyid("nextId", "bizType=" + BIZ + "&token=" + TINY + "&batchSize=abc")
                        .status())
                .isEqualTo(400);
    }

    @Test
    void tinyidNextIdSimpleAnswersAsTinyidDid() {
        assertLike("tinyid-nextIdSimple", tinyid("nextIdSimple", "bizType=" + BIZ + "&token=" + TINY));
        Answer four = tinyid("nextIdSimple", "bizType=" + BIZ + "&token=" + TINY + "&batchSize=4");
        assertLike("tinyid-nextIdSimple-batch4", four);
        long[] ids = longs(four.response().body());
        assertThat(ids).hasSize(4);
        assertThat(ids[3]).isEqualTo(ids[0] + 3);
        assertLike(
                "tinyid-nextIdSimple-batch0",
                tinyid("nextIdSimple", "bizType=" + BIZ + "&token=" + TINY + "&batchSize=0"));
    }

    @Test
    void tinyidRefusesAsTinyidDid() {
        for (String endpoint : List.of("nextId", "nextSegmentId")) {
            Answer bad = tinyid(endpoint, "bizType=" + BIZ + "&token=bad");
            assertLike("tinyid-" + endpoint + "-badtoken", bad);
            assertThat(bad.response().body())
                    .isEqualTo(PeerAnswer.recorded("tinyid-" + endpoint + "-badtoken")
                            .body());
            // A biz type the token may not use, and no parameters at all: the same "token is error".
            assertThat(tinyid(endpoint, "bizType=other-" + RUN + "&token=" + TINY)
                            .response()
                            .body())
                    .isEqualTo(bad.response().body());
            assertThat(tinyid(endpoint, "").response().body())
                    .isEqualTo(bad.response().body());
            // The token of another idgen client is as wrong: only 'tiny' may use BIZ.
            assertThat(tinyid(endpoint, "bizType=" + BIZ + "&token=" + APP + "x")
                            .response()
                            .body())
                    .isEqualTo(bad.response().body());
        }
        assertLike("tinyid-nextId-biz-not-in-token", tinyid("nextId", "bizType=other-" + RUN + "&token=" + TINY));
        assertLike("tinyid-nextIdSimple-badtoken", tinyid("nextIdSimple", "bizType=" + BIZ + "&token=bad"));
        assertLike(
                "tinyid-nextSegmentIdSimple-badtoken", tinyid("nextSegmentIdSimple", "bizType=" + BIZ + "&token=bad"));
        // A biz type the token may use but no segment can come from (a Snowflake name): code 6 with the reason.
        Answer noSegment = tinyid("nextSegmentId", "bizType=snow&token=" + TINY);
        assertLike("tinyid-nextSegmentId-unknownbiz-with-token", noSegment);
        assertThat(noSegment.json().get("code").intValue()).isEqualTo(6);
        assertThat(tinyid("nextSegmentIdSimple", "bizType=snow&token=" + TINY)
                        .response()
                        .body())
                .isEmpty();
    }

    @Test
    void tinyidSegmentsAreBlocksNeverHandedOutTwice() {
        Answer json = tinyid("nextSegmentId", "bizType=" + BIZ + "&token=" + TINY);
        assertLike("tinyid-nextSegmentId", json);
        JsonNode data = json.json().get("data");
        long current = data.get("currentId").longValue();
        assertThat(data.get("maxId").longValue()).isEqualTo(current + 100);
        assertThat(data.get("loadingId").longValue()).isEqualTo(current + 20);
        assertThat(data.get("delta").intValue()).isEqualTo(1);
        assertThat(data.get("remainder").intValue()).isEqualTo(0);

        Answer simple = tinyid("nextSegmentIdSimple", "bizType=" + BIZ + "&token=" + TINY);
        assertLike("tinyid-nextSegmentIdSimple", simple);
        long[] next = longs(simple.response().body());
        assertThat(next[0]).isGreaterThanOrEqualTo(current + 100);
        // Neither the server's own IDs nor a block taken after it fall in the segments handed out.
        long own = http.get("/ids/" + BIZ, APP).json().get(0).asLong();
        assertThat(own > current && own <= current + 100)
                .as("own ID %d in the first segment", own)
                .isFalse();
        assertThat(own > next[0] && own <= next[2])
                .as("own ID %d in the second segment", own)
                .isFalse();
        JsonNode block = http.post("/blocks/" + BIZ + "?size=10", APP).json();
        assertThat(Long.parseLong(block.get("first").stringValue())).isGreaterThan(next[2]);
    }

    @Test
    void tinyidServesPostWithAFormBodyAndHeadUsesUpNoId() {
        Answer form = http.send(http.request("/tinyid/id/nextIdSimple", null)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("bizType=" + BIZ + "&token=" + TINY)));
        long before = Long.parseLong(form.response().body());
        Answer head = http.send(http.request("/tinyid/id/nextIdSimple?bizType=" + BIZ + "&token=" + TINY, null)
                .method("HEAD", HttpRequest.BodyPublishers.noBody()));
        assertThat(head.status()).isEqualTo(200);
        assertThat(Long.parseLong(tinyid("nextIdSimple", "bizType=" + BIZ + "&token=" + TINY)
                        .response()
                        .body()))
                .isEqualTo(before + 1);
    }

    /**
     * Tinyid's Java client's own request, replayed byte for byte over a socket, and its answer read the way the client
     * reads it: the body's lines joined, split at commas into currentId, loadingId, maxId, delta, remainder.
     */
    @Test
    void tinyidsClientRequestGetsASegmentItCanRead() throws IOException {
        List<Long> seen = new ArrayList<>();
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(30_000);
            for (int round = 0; round < 2; round++) { // keep-alive, as the client's connection is
                socket.getOutputStream().write(TINYID_CLIENT_REQUEST.getBytes(StandardCharsets.ISO_8859_1));
                socket.getOutputStream().flush();
                RawAnswer answer = RawAnswer.read(socket.getInputStream());
                assertThat(answer.statusLine()).startsWith("HTTP/1.1 200");
                assertThat(answer.header("content-type")).isEqualTo("text/plain;charset=UTF-8");
                String[] fields = answer.body().replace("\n", "").split(",");
                assertThat(fields).hasSize(5);
                long currentId = Long.parseLong(fields[0]);
                long loadingId = Long.parseLong(fields[1]);
                long maxId = Long.parseLong(fields[2]);
                assertThat(Long.parseLong(fields[3])).isEqualTo(1);
                assertThat(Long.parseLong(fields[4])).isEqualTo(0);
                assertThat(loadingId).isBetween(currentId + 1, maxId);
                for (long id = currentId + 1; id <= maxId; id++) {
                    seen.add(id);
                }
            }
        }
        assertThat(seen).hasSize(200).doesNotHaveDuplicates();
    }

    private Answer tinyid(String endpoint, String query) {
        return http.get("/tinyid/id/" + endpoint + (query.isEmpty() ? "" : "?" + query), null);
    }

    private static long[] longs(String csv) {
        String[] fields = csv.split(",");
        long[] numbers = new long[fields.length];
        for (int i = 0; i < fields.length; i++) {
            numbers[i] = Long.parseLong(fields[i]);
        }
        return numbers;
    }

    /** Status, Content-Type and the body's shape as in the recording. */
    private static void assertLike(String recording, Answer answer) {
        PeerAnswer peer = PeerAnswer.recorded(recording);
        PeerAnswer ours = new PeerAnswer(
                answer.status(), answer.contentType(), answer.response().body());
        assertThat(ours.status()).as(recording + " " + answer).isEqualTo(peer.status());
        assertThat(ours.contentType()).as(recording + " " + answer).isEqualTo(peer.contentType());
        assertThat(ours.shape()).as(recording + " " + answer).isEqualTo(peer.shape());
        assertThat(ours.body()).as("no trailing newline").doesNotEndWith("\n");
    }

    /** An HTTP/1.1 answer read off a socket by its Content-Length. */
    record RawAnswer(String statusLine, List<String> headers, String body) {

        static RawAnswer read(InputStream in) throws IOException {
            String statusLine = line(in);
            List<String> headers = new ArrayList<>();
            for (String header = line(in); !header.isEmpty(); header = line(in)) {
                headers.add(header);
            }
            RawAnswer head = new RawAnswer(statusLine, headers, "");
            byte[] body = in.readNBytes(Integer.parseInt(head.header("content-length")));
            return new RawAnswer(statusLine, headers, new String(body, StandardCharsets.UTF_8));
        }

        String header(String name) {
            for (String header : headers) {
                int colon = header.indexOf(':');
                if (header.substring(0, colon).trim().toLowerCase(Locale.ROOT).equals(name)) {
                    return header.substring(colon + 1).trim();
                }
            }
            return null;
        }

        private static String line(InputStream in) throws IOException {
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            for (int b = in.read(); b != '\n'; b = in.read()) {
                if (b < 0) {
                    throw new IOException("The answer ended early");
                }
                if (b != '\r') {
                    line.write(b);
                }
            }
            return line.toString(StandardCharsets.ISO_8859_1);
        }
    }
}
