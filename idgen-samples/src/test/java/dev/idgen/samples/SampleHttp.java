package dev.idgen.samples;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Real HTTP calls to the sample on its random port, as a client would make them. */
final class SampleHttp {

    /** Generous for a loaded machine; a request that hangs fails its test in minutes, not at JUnit's 10. */
    private static final Duration TIMEOUT = Duration.ofMinutes(2);

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private SampleHttp() {}

    static HttpResponse<String> get(int port, String path) throws IOException, InterruptedException {
        return HTTP.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                        .timeout(TIMEOUT)
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    static HttpResponse<String> postJson(int port, String path, String body) throws IOException, InterruptedException {
        return HTTP.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                        .timeout(TIMEOUT)
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
