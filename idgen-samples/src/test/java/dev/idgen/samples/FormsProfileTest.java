package dev.idgen.samples;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * The documented {@code forms} profile: every ID form over HTTP with no external service, as canonical strings, with
 * decode, and problem+json for bad input.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles("forms")
class FormsProfileTest {

    private static final ObjectMapper JSON = JsonMapper.builder().build();

    @Value("${local.server.port}")
    private int port;

    private JsonNode getJson(String path) throws Exception {
        HttpResponse<String> response = SampleHttp.get(port, path);
        assertThat(response.statusCode()).as(path + " -> " + response.body()).isEqualTo(200);
        return JSON.readTree(response.body());
    }

    private List<String> ids(String path) throws Exception {
        List<String> ids = new ArrayList<>();
        getJson(path).forEach(node -> ids.add(node.asString()));
        return ids;
    }

    private JsonNode badRequest(String path) throws Exception {
        HttpResponse<String> response = SampleHttp.get(port, path);
        assertThat(response.statusCode()).as(path + " -> " + response.body()).isEqualTo(400);
        assertThat(response.headers().firstValue("Content-Type"))
                .hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));
        return JSON.readTree(response.body());
    }

    private static void assertRecent(JsonNode decoded) {
        Instant timestamp = Instant.parse(decoded.get("timestamp").asString());
        assertThat(timestamp)
                .isBetween(Instant.now().minusSeconds(3600), Instant.now().plusSeconds(60));
    }

    @Test
    void uuidsAreVersion7InOrderAndDecodeToTheirTime() throws Exception {
        List<String> uuids = ids("/ids/uuid?count=5");
        assertThat(uuids)
                .hasSize(5)
                .allMatch(u -> u.matches("[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-" + "[0-9a-f]{12}"))
                .isSorted()
                .doesNotHaveDuplicates();
        JsonNode decoded = getJson("/ids/uuid/decode/" + uuids.get(0));
        assertThat(decoded.get("form").asString()).isEqualTo("uuid-v7");
        assertRecent(decoded);
    }

    @Test
    void orderedGuidsAndObjectIdsDecodeToTheirTime() throws Exception {
        String guid = ids("/ids/guid").get(0);
        assertThat(guid).matches("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
        assertRecent(getJson("/ids/guid/decode/" + guid));
        List<String> oids = ids("/ids/oid?count=3");
        assertThat(oids).allMatch(o -> o.matches("[0-9a-f]{24}")).doesNotHaveDuplicates();
        assertRecent(getJson("/ids/oid/decode/" + oids.get(2)));
    }

    @Test
    void shardAwareIdsCarryTheShardOfTheirKey() throws Exception {
        List<String> first = ids("/ids/shard?count=3&shardKey=user-42");
        List<String> again = ids("/ids/shard?count=2&shardKey=user-42");
        List<Integer> shards = new ArrayList<>();
        for (String id : concat(first, again)) {
            JsonNode decoded = getJson("/ids/shard/decode/" + id);
            assertRecent(decoded);
            shards.add(decoded.get("shard").asInt());
        }
        assertThat(shards).hasSize(5).containsOnly(shards.get(0));
        assertThat(shards.get(0)).isBetween(0, 1023);
        assertThat(badRequest("/ids/shard?count=2").get("parameter").asString()).isEqualTo("shardKey");
        assertThat(badRequest("/ids/uuid?shardKey=user-42").get("parameter").asString())
                .isEqualTo("shardKey");
    }

    @Test
    void publicIdsDecodeToTheInternalIdAndATamperedOneIsAProblem() throws Exception {
        List<String> ids = ids("/ids/public?count=2");
        assertThat(ids).doesNotHaveDuplicates();
        JsonNode decoded = getJson("/ids/public/decode/" + ids.get(0));
        assertThat(Long.parseLong(decoded.get("id").asString())).isPositive();
        assertRecent(decoded);
        String id = ids.get(1);
        char last = id.charAt(id.length() - 1);
        String tampered = id.substring(0, id.length() - 1) + (last == 'A' ? 'B' : 'A');
        JsonNode problem = badRequest("/ids/public/decode/" + tampered);
        assertThat(problem.get("parameter").asString()).isEqualTo("id");
        assertThat(badRequest("/ids/public/decode/" + id.substring(1))
                        .get("parameter")
                        .asString())
                .isEqualTo("id");
    }

    @Test
    void base32IdsCarryTheirPrefixAndSortAsTheyWereIssued() throws Exception {
        List<String> ids = ids("/ids/b32?count=4");
        assertThat(ids).allMatch(id -> id.matches("ord_[0-9A-HJKMNP-TV-Z]{13}")).isSorted();
        JsonNode decoded = getJson("/ids/b32/decode/" + ids.get(3));
        assertThat(Long.parseLong(decoded.get("id").asString())).isPositive();
        assertRecent(decoded);
        assertThat(badRequest("/ids/b32/decode/inv_" + ids.get(3).substring(4))
                        .get("parameter")
                        .asString())
                .isEqualTo("id");
    }

    @Test
    void dailyInvoiceNumbersCarryTheDayAndCountFromOne() throws Exception {
        List<String> first = ids("/ids/invoice-daily?count=2");
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        long day = Long.parseLong(today.format(DateTimeFormatter.BASIC_ISO_DATE));
        // Midnight may pass between reading the day and issuing: then both are the next day's.
        long expectedFirst = first.get(0).startsWith(Long.toString(day))
                ? day * 100_000_000L
                : Long.parseLong(today.plusDays(1).format(DateTimeFormatter.BASIC_ISO_DATE)) * 100_000_000L;
        assertThat(first).containsExactly(Long.toString(expectedFirst + 1), Long.toString(expectedFirst + 2));
        JsonNode decoded = getJson("/ids/invoice-daily/decode/" + first.get(1));
        assertThat(decoded.get("number").asLong()).isEqualTo(2);
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
