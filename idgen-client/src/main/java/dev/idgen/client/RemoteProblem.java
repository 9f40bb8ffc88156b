package dev.idgen.client;

import java.net.http.HttpResponse;
import java.util.Map;

/** What a refusal (application/problem+json) said; what is missing stays null. */
final class RemoteProblem {

    /** How much of a body a failure message quotes. */
    private static final int QUOTED = 200;

    private final String title;

    final String detail;

    final String parameter;

    private final String raw;

    private RemoteProblem(String title, String detail, String parameter, String raw) {
        this.title = title;
        this.detail = detail;
        this.parameter = parameter;
        this.raw = raw;
    }

    static RemoteProblem of(HttpResponse<String> response) {
        String body = response.body() == null ? "" : response.body();
        try {
            Map<String, Object> json = FlatJson.parseObject(body);
            return new RemoteProblem(text(json, "title"), text(json, "detail"), text(json, "parameter"), null);
        } catch (IllegalArgumentException e) {
            String raw = body.strip().replaceAll("\\s+", " ");
            return new RemoteProblem(null, null, null, raw.length() > QUOTED ? raw.substring(0, QUOTED) + "..." : raw);
        }
    }

    private static String text(Map<String, Object> json, String field) {
        return json.get(field) instanceof String value ? value : null;
    }

    /** @return the detail, else the title, else the start of the body */
    String summary() {
        if (detail != null) {
            return title == null ? detail : title + ": " + detail;
        }
        if (title != null) {
            return title;
        }
        return raw == null || raw.isEmpty() ? "(no detail)" : "'" + raw + "'";
    }
}
