package dev.idgen.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.client.RemoteSegmentStore;
import dev.idgen.core.ManualTimeSource;
import dev.idgen.core.PermissionDeniedException;
import dev.idgen.core.segment.SegmentBufferStats;
import dev.idgen.core.segment.SegmentIdService;
import dev.idgen.server.metrics.ServerMeters;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * docs/server.md as a new user follows it, against one server started from its commands on an empty database
 * ({@link DocumentedServer}): every {@code curl} line of its HTTP section sent as written (by the JDK's HttpClient,
 * only host, port and token put in) and answered as the guide shows; the example client's names are the first
 * application's; and a name the client's token does not allow reaches a {@link RemoteSegmentStore}'s caller as a
 * permission error, asked once, neither retried nor counted as an outage.
 */
class ServerGuideTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** The guide's placeholder for a server, in the curl lines. */
    private static final String DOCUMENTED_SERVER = "https://idgen-1:8080";

    private static DocumentedServer server;

    private static String guide;

    @BeforeAll
    static void startTheDocumentedServer() throws Exception {
        guide = Files.readString(DocumentedServer.GUIDE, StandardCharsets.UTF_8);
        server = DocumentedServer.start();
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void theCurlCallsAnswerAsTheGuideShows() {
        List<String> lines = DocumentedServer.joinedLines(DocumentedServer.section(guide, "## HTTP"));
        ServerHttp http = new ServerHttp("http://127.0.0.1:" + server.port());
        int calls = 0;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (!line.startsWith("curl ")) {
                continue;
            }
            List<String> shown = new ArrayList<>();
            for (int j = i + 1; j < lines.size() && lines.get(j).startsWith("#"); j++) {
                shown.add(lines.get(j).substring(1).strip());
            }
            ServerHttp.Answer answer = http.send(request(line, http));
            expect(line, shown, answer);
            calls++;
        }
        assertThat(calls).as("curl lines in the guide's HTTP section").isGreaterThanOrEqualTo(4);
    }

    @Test
    void theExampleClientMayUseTheFirstApplicationsNames() throws Exception {
        Set<String> used = new LinkedHashSet<>();
        Matcher names = Pattern.compile("(?:@IdgenId|nextId)\\(\"([^\"]+)\"\\)").matcher("");
        try (var sources = Files.walk(Path.of("../idgen-docs-examples/src/main/java"))) {
            for (Path source :
                    sources.filter(p -> p.toString().endsWith(".java")).toList()) {
                names.reset(Files.readString(source));
                while (names.find()) {
                    used.add(names.group(1));
                }
            }
        }
        assertThat(used).as("the names the first application uses").contains("orders");
        String namesArgument = server.documentedArguments().stream()
                .filter(argument -> argument.matches("--idgen\\.server\\.clients\\.[^.]+\\.names=.*"))
                .findFirst()
                .orElseThrow();
        assertThat(List.of(
                        namesArgument.substring(namesArgument.indexOf('=') + 1).split(",")))
                .as("the guide's client names")
                .containsExactlyInAnyOrderElementsOf(used);
    }

    @Test
    void aNameTheTokenDoesNotAllowIsAPermissionErrorAskedOnceNotAnOutage() throws Exception {
        String client = server.documentedArguments().stream()
                .filter(argument -> argument.startsWith("--idgen.server.clients."))
                .map(argument -> argument.split("\\.")[3])
                .findFirst()
                .orElseThrow();
        ManualTimeSource clock = new ManualTimeSource(System.currentTimeMillis());
        try (RemoteSegmentStore store = RemoteSegmentStore.builder()
                        .servers(URI.create("http://127.0.0.1:" + server.port()))
                        .token(server.token())
                        .timeout(Duration.ofSeconds(30))
                        .requestTimeout(Duration.ofSeconds(30))
                        .build();
                SegmentIdService ids =
                        SegmentIdService.builder(store).timeSource(clock).build()) {
            assertThat(ids.nextId("shipments")).isPositive();

            assertThatThrownBy(() -> ids.nextId("invoices"))
                    .isInstanceOfSatisfying(
                            PermissionDeniedException.class,
                            e -> assertThat(e.name()).isEqualTo("invoices"))
                    .hasMessageContaining("'invoices'")
                    .hasMessageContaining("client '" + client + "'")
                    .hasMessageContaining("(403)");
            assertThat(forbidden(client)).isEqualTo(1);
            // At once again, without asking the server: the same answer a moment later.
            assertThatThrownBy(() -> ids.nextId("invoices")).isInstanceOf(PermissionDeniedException.class);
            assertThat(forbidden(client)).isEqualTo(1);
            // Asked again once the hold is over (the server's configuration may have changed meanwhile).
            clock.advance(Duration.ofSeconds(2));
            assertThatThrownBy(() -> ids.nextId("invoices")).isInstanceOf(PermissionDeniedException.class);
            assertThat(forbidden(client)).isEqualTo(2);

            SegmentBufferStats stats = ids.stats("invoices").orElseThrow();
            assertThat(stats.fetchFailures()).as("a denial is no failed load").isZero();
            assertThat(stats.refusing())
                    .as("a denial does not take the name down")
                    .isFalse();
            assertThat(stats.lastFailure()).isNull();
            assertThat(store.servers().get(0).state())
                    .as("the server answered: its breaker stays closed")
                    .isEqualTo(dev.idgen.core.CircuitBreaker.State.CLOSED);
            assertThat(ids.nextId("shipments")).isPositive();
        }
    }

    /** @return the server's count of block requests it refused the client as forbidden */
    private static long forbidden(String client) {
        Timer timer = server.context()
                .getBean(MeterRegistry.class)
                .find(ServerMeters.REQUESTS)
                .tags("client", client, "operation", "block", "outcome", "forbidden")
                .timer();
        return timer == null ? 0 : timer.count();
    }

    /** The curl line as a request: its method, headers and URL, the server and {@code $TOKEN} put in. */
    private static HttpRequest.Builder request(String line, ServerHttp http) {
        List<String> words = shellWords(line);
        String method = "GET";
        List<String[]> headers = new ArrayList<>();
        String url = null;
        for (int k = 1; k < words.size(); k++) {
            String word = words.get(k);
            switch (word) {
                case "-X" -> method = words.get(++k);
                case "-H" -> headers.add(words.get(++k).split(":\\s*", 2));
                default -> {
                    assertThat(word)
                            .as("a curl option this test does not know, in: %s", line)
                            .doesNotStartWith("-");
                    url = word;
                }
            }
        }
        assertThat(url).as(line).startsWith(DOCUMENTED_SERVER);
        HttpRequest.Builder request = http.request(url.substring(DOCUMENTED_SERVER.length()), null)
                .method(method, HttpRequest.BodyPublishers.noBody());
        for (String[] header : headers) {
            request.header(header[0], header[1]);
        }
        return request;
    }

    /**
     * Checks the answer against the guide's comment lines: {@code 400 application/problem+json:} first when the
     * status is not 200, then the body as JSON; a shown object ending in {@code ,...}} lists some of the members.
     */
    private static void expect(String line, List<String> shown, ServerHttp.Answer answer) {
        assertThat(shown).as("the answer the guide shows for %s", line).isNotEmpty();
        int status = 200;
        String contentType = "application/json";
        Matcher head = Pattern.compile("(\\d{3}) (\\S+):").matcher(shown.get(0));
        if (head.matches()) {
            status = Integer.parseInt(head.group(1));
            contentType = head.group(2);
            shown = shown.subList(1, shown.size());
        }
        assertThat(answer.status()).as("%s answered %s", line, answer).isEqualTo(status);
        assertThat(answer.contentType()).as(line).startsWith(contentType);
        String body = String.join(" ", shown);
        boolean some = body.endsWith(",...}");
        JsonNode expected = JSON.readTree(some ? body.substring(0, body.length() - 5) + "}" : body);
        JsonNode actual = answer.json();
        if (some) {
            for (var member : expected.properties()) {
                assertThat(actual.get(member.getKey()))
                        .as("%s: member %s of %s", line, member.getKey(), actual)
                        .isEqualTo(member.getValue());
            }
        } else {
            assertThat(actual).as("%s answered %s", line, answer).isEqualTo(expected);
        }
    }

    /** Splits a shell line into words: single quotes literal, double quotes with {@code $TOKEN} put in. */
    private static List<String> shellWords(String line) {
        List<String> words = new ArrayList<>();
        StringBuilder word = null;
        char quote = 0;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else {
                    word.append(c);
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
                word = word == null ? new StringBuilder() : word;
            } else if (Character.isWhitespace(c)) {
                if (word != null) {
                    words.add(word.toString());
                    word = null;
                }
            } else if (c == '#' && word == null) {
                break;
            } else {
                word = word == null ? new StringBuilder() : word;
                word.append(c);
            }
        }
        assertThat((int) quote).as("unbalanced quotes in: %s", line).isZero();
        if (word != null) {
            words.add(word.toString());
        }
        return words.stream().map(w -> w.replace("$TOKEN", server.token())).toList();
    }
}
