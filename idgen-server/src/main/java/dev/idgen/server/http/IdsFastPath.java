package dev.idgen.server.http;

import dev.idgen.server.Caller;
import dev.idgen.server.IdgenServerApi;
import dev.idgen.server.IdgenServerApi.IssuedIds;
import dev.idgen.server.ServerRefusal;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Enumeration;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.web.servlet.HandlerExceptionResolver;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code GET /ids/{name}} and {@code GET /ids/{name}?count=N} answered before Spring MVC: the same service call, the
 * same JSON, the same refusals, without MVC's dispatch, data binding and content negotiation, which cost more than
 * idgen's own work on every request (docs/benchmarks.md, "Where the server's time goes": MVC 20 % of the server's CPU,
 * idgen 1.4 %).
 *
 * <p>Only a request whose answer MVC would write in exactly the same bytes is taken here: a plain path (no percent
 * escapes, no path parameters, one segment after {@code /ids/}), no query or a lone undecoded {@code count}, and an
 * {@code Accept} MVC would answer with {@code application/json}. Every other request, {@code shardKey}, decoding and
 * HEAD included, goes on to {@link IdsController} unchanged. A refusal is handed to MVC's exception resolvers, so
 * {@link ServerProblems} writes its problem+json as it does for the controller.
 */
final class IdsFastPath implements Filter {

    private static final String PREFIX = "/ids/";

    private static final String COUNT = "count=";

    private static final String JSON = MediaType.APPLICATION_JSON_VALUE;

    private final IdgenServerApi api;

    private final HandlerExceptionResolver refusals;

    /** Boot's mapper, as MVC's converter uses it, for the IDs of forms other than plain numbers. */
    private final JsonMapper textForms;

    /** Whether numbers are written here as well, because the mapper writes them as this filter would. */
    private final boolean compact;

    IdsFastPath(IdgenServerApi api, HandlerExceptionResolver refusals, JsonMapper mapper) {
        this.api = api;
        this.refusals = refusals;
        this.textForms = mapper;
        this.compact = !mapper.isEnabled(SerializationFeature.INDENT_OUTPUT);
    }

    @Override
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain)
            throws IOException, ServletException {
        HttpServletRequest request = (HttpServletRequest) req;
        HttpServletResponse response = (HttpServletResponse) res;
        String name = compact && "GET".equals(request.getMethod()) ? name(request) : null;
        String query = request.getQueryString();
        String count = query == null ? null : count(query);
        String authorization = name == null ? null : single(request, HttpHeaders.AUTHORIZATION);
        if (name == null
                || (query != null && count == null)
                || authorization == null
                || !acceptsJson(single(request, HttpHeaders.ACCEPT))) {
            chain.doFilter(request, response);
            return;
        }
        Caller caller;
        int n;
        try {
            caller = api.authenticate(authorization, HttpArguments.HTTP);
            n = count == null ? 1 : HttpArguments.wholeNumber("count", count);
        } catch (ServerRefusal beforeAnyName) {
            // Refused before a name is known, so not in idgen.server.requests: MVC answers it again, as it did before
            // this filter, and http.server.requests counts it (a flood of bad tokens stays visible). Nothing was taken.
            chain.doFilter(request, response);
            return;
        }
        // Every answer of the ID paths, refusals included, as NoStoreFilter sets it for MVC's.
        response.setHeader(HttpHeaders.CACHE_CONTROL, "no-store");
        byte[] body;
        try {
            body = json(api.nextIds(caller, name, n, null));
        } catch (ServerRefusal refusal) {
            // Recorded in idgen.server.requests already: answered here, by the same handler as the controller's.
            if (refusals.resolveException(request, response, null, refusal) == null) {
                throw refusal;
            }
            return;
        }
        response.setStatus(HttpServletResponse.SC_OK);
        response.setContentType(JSON);
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }

    /**
     * @return the header's one value; {@code ""} when it is absent; {@code null} when it comes more than once, which
     *     MVC reads as the values joined (two {@code Authorization} headers are then no token of any client)
     */
    private static String single(HttpServletRequest request, String header) {
        Enumeration<String> values = request.getHeaders(header);
        if (!values.hasMoreElements()) {
            return "";
        }
        String value = values.nextElement();
        return values.hasMoreElements() ? null : value;
    }

    /** @return the name of {@code /ids/{name}}, or {@code null} when MVC should read the path */
    private static String name(HttpServletRequest request) {
        String uri = request.getRequestURI();
        int start = request.getContextPath().length() + PREFIX.length();
        if (uri.length() <= start || !uri.startsWith(PREFIX, start - PREFIX.length())) {
            return null;
        }
        for (int i = start; i < uri.length(); i++) {
            char c = uri.charAt(i);
            // Escapes and path parameters are MVC's to decode; a second segment is another mapping or a 404.
            if (c == '/' || c == '%' || c == ';') {
                return null;
            }
        }
        return uri.substring(start);
    }

    /** @return the value of a query that is {@code count=...} alone and needs no decoding, else {@code null} */
    private static String count(String query) {
        if (!query.startsWith(COUNT)) {
            return null;
        }
        for (int i = COUNT.length(); i < query.length(); i++) {
            char c = query.charAt(i);
            if (c == '&' || c == '%' || c == '+' || c == '=' || c == ';') {
                return null;
            }
        }
        return query.substring(COUNT.length());
    }

    /** No {@code Accept}, or one that MVC answers with plain {@code application/json}. */
    private static boolean acceptsJson(String accept) {
        return accept != null && (accept.isEmpty() || accept.equals("*/*") || accept.equals(JSON));
    }

    private byte[] json(IssuedIds issued) {
        long[] numbers = issued.numbers();
        if (numbers == null) {
            return textForms.writeValueAsBytes(issued.texts());
        }
        // Decimal digits need no escaping: the bytes Jackson writes for these strings, without its generator.
        StringBuilder json = new StringBuilder(2 + numbers.length * 23);
        json.append('[');
        for (int i = 0; i < numbers.length; i++) {
            if (i > 0) {
                json.append(',');
            }
            json.append('"').append(numbers[i]).append('"');
        }
        return json.append(']').toString().getBytes(StandardCharsets.ISO_8859_1);
    }
}
