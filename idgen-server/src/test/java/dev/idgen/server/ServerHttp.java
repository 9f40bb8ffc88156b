package dev.idgen.server;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Requests to a running server over the JDK's HttpClient, the answers' bodies read as JSON. */
final class ServerHttp {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final HttpClient client;

    private final String base;

    ServerHttp(String base) {
        this(HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build(), base);
    }

    ServerHttp(HttpClient client, String base) {
        this.client = client;
        this.base = base;
    }

    Answer get(String path, String token) {
        return send(request(path, token).GET());
    }

    Answer post(String path, String token) {
        return send(request(path, token).POST(HttpRequest.BodyPublishers.noBody()));
    }

    Answer send(HttpRequest.Builder request) {
        try {
            HttpResponse<String> response = client.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return new Answer(response);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    HttpRequest.Builder request(String path, String token) {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30));
        if (token != null) {
            request.header("Authorization", token.contains(" ") ? token : "Bearer " + token);
        }
        return request;
    }

    /** @return {@code sha256:} and the hex SHA-256 of the token, as idgen.server.clients.<id>.token-hash wants it */
    static String tokenHash(String token) {
        try {
            return "sha256:"
                    + HexFormat.of()
                            .formatHex(MessageDigest.getInstance("SHA-256")
                                    .digest(token.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** One answer. */
    record Answer(HttpResponse<String> response) {

        int status() {
            return response.statusCode();
        }

        String header(String name) {
            return response.headers().firstValue(name).orElse(null);
        }

        String contentType() {
            return header("Content-Type");
        }

        JsonNode json() {
            return JSON.readTree(response.body());
        }

        @Override
        public String toString() {
            return status() + " " + response.headers().map() + " " + response.body();
        }
    }
}
