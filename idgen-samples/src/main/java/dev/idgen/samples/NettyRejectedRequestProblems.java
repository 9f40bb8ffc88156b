package dev.idgen.samples;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Map;
import java.util.regex.Pattern;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.reactor.netty.NettyServerCustomizer;
import org.springframework.stereotype.Component;
import reactor.netty.NettyPipeline;
import reactor.netty.http.server.HttpServer;
import tools.jackson.databind.json.JsonMapper;

/**
 * Netty's rejections as {@code application/problem+json}, as {@link ProblemJsonErrorReportValve} does for Tomcat's.
 * Without it, Reactor Netty answers a request line or headers it cannot decode (longer than
 * {@code server.netty.max-initial-line-length}, malformed), and a target that is no URI (a backslash, a space, a
 * broken {@code %XX} escape), with an empty 400 before WebFlux runs. This handler sits right after Netty's HTTP codec
 * and answers those itself, plus an encoded NUL ({@code %00}) in the path, which Tomcat turns down too and which no
 * name or ID may hold. When the path is known and one of ours, the problem names the parameter at fault with the rule
 * and message the controller would give ({@link IdProblems#rejectedRequest}).
 */
@Component
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
class NettyRejectedRequestProblems implements NettyServerCustomizer {

    static final String UNREADABLE = "The request line or headers could not be read: longer than the server accepts"
            + " (server.netty.max-initial-line-length for the request line, server.max-http-request-header-size for"
            + " the headers) or malformed.";

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** What RFC 3986 lets a request target hold; Tomcat turns down the rest before reading the path. */
    private static final Pattern URI_CHARACTERS = Pattern.compile("[A-Za-z0-9\\-._~:/?#\\[\\]@!$&'()*+,;=%]*");

    @Override
    public HttpServer apply(HttpServer server) {
        return server.doOnChannelInit((observer, channel, remoteAddress) -> {
            ChannelPipeline pipeline = channel.pipeline();
            // HTTP/1.1 only: the codec is where a request is decoded, and nothing of ours has seen it yet.
            if (pipeline.get(NettyPipeline.HttpCodec) != null) {
                pipeline.addAfter(NettyPipeline.HttpCodec, "idgenRejectedRequestProblems", new Rejections());
            }
        });
    }

    /**
     * @param target the request target as sent
     * @return the problem to answer, or {@code null} when the request may go on to WebFlux
     */
    static Map<String, Object> rejection(String target) {
        if (!URI_CHARACTERS.matcher(target).matches()) {
            // Not a URI at all: as with Tomcat, whose request-line parser turns it down, no path is read.
            return IdProblems.plain(
                    400,
                    "The request target holds characters a URI may not (RFC 3986), such as a space or a backslash:"
                            + " send them as %XX escapes.");
        }
        int end = target.indexOf('?');
        String rawPath = end < 0 ? target : target.substring(0, end);
        String reason = null;
        if (rawPath.contains("%00")) {
            reason = "a NUL (%00) in the path";
        } else {
            try {
                new URI(target);
            } catch (URISyntaxException e) {
                reason = "the target is no URI: " + e.getReason();
            }
        }
        if (reason == null) {
            return null;
        }
        Map<String, Object> problem = IdProblems.rejectedRequest(400, rawPath, reason, UNREADABLE);
        if (!problem.containsKey("parameter")) {
            try {
                problem.put("instance", new URI(rawPath).toString());
            } catch (URISyntaxException e) {
                // The path itself is broken: no instance rather than a guess.
            }
        }
        return problem;
    }

    /** One per connection: it remembers whether the rest of a rejected request's body is still arriving. */
    private static final class Rejections extends ChannelInboundHandlerAdapter {

        private boolean discarding;

        @Override
        public void channelRead(ChannelHandlerContext context, Object message) {
            if (message instanceof HttpRequest request) {
                Map<String, Object> problem = request.decoderResult().isFailure()
                        ? IdProblems.plain(400, UNREADABLE)
                        : rejection(request.uri());
                if (problem != null) {
                    discarding = !(message instanceof LastHttpContent);
                    ReferenceCountUtil.release(message);
                    answer(context, problem);
                    return;
                }
                discarding = false;
            } else if (discarding && message instanceof HttpContent) {
                discarding = !(message instanceof LastHttpContent);
                ReferenceCountUtil.release(message);
                return;
            }
            context.fireChannelRead(message);
        }

        /** The problem, then the connection closed: what follows a malformed request cannot be trusted. */
        private static void answer(ChannelHandlerContext context, Map<String, Object> problem) {
            byte[] body = JSON.writeValueAsBytes(problem);
            FullHttpResponse response = new DefaultFullHttpResponse(
                    HttpVersion.HTTP_1_1,
                    HttpResponseStatus.valueOf((Integer) problem.get("status")),
                    Unpooled.wrappedBuffer(body));
            response.headers()
                    .set(HttpHeaderNames.CONTENT_TYPE, "application/problem+json")
                    .setInt(HttpHeaderNames.CONTENT_LENGTH, body.length)
                    .set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            context.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
        }
    }
}
