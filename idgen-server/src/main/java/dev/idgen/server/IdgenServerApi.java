package dev.idgen.server;

import dev.idgen.core.segment.Segment;
import java.util.List;
import java.util.Map;

/**
 * What the server offers, whatever the transport: the HTTP controllers and the gRPC service parse their requests,
 * call these methods and translate a {@link ServerRefusal} into their own status codes. Every method checks its
 * arguments, the caller's rights and its rate limit, and records the request in the per-client, per-name meters.
 */
public interface IdgenServerApi {

    /**
     * @param authorization the {@code Authorization} header or metadata value ({@code Bearer <token>}), or
     *     {@code null}
     * @param transport {@code http} or {@code grpc}
     * @return the caller
     * @throws ServerRefusal UNAUTHENTICATED when the token is missing or unknown (and anonymous access is off)
     */
    Caller authenticate(String authorization, String transport);

    /**
     * @param caller who asks
     * @param name the sequence name
     * @param count how many IDs, 1 to {@code idgen.server.max-count}
     * @param shardKey the shard key of a shard-aware generator, or {@code null}
     * @return the IDs
     */
    IssuedIds nextIds(Caller caller, String name, int count, String shardKey);

    /**
     * @param caller who asks
     * @param name the sequence name the ID came from
     * @param id the ID as text
     * @return what it carries: times as {@link java.time.Instant}, the 64-bit id as {@link Long}
     */
    Map<String, Object> decode(Caller caller, String name, String id);

    /**
     * What an ID carries, read by the default generator. Decoding issues nothing, so any client that may use one of
     * the default generator's names (or every name) may ask, whether or not its names include {@code default}.
     *
     * @param caller who asks
     * @param id the ID as text
     * @return what it carries, as {@link #decode(Caller, String, String)} returns it
     */
    Map<String, Object> decodeByDefaultGenerator(Caller caller, String id);

    /**
     * A block of consecutive IDs taken from the segment store of the generator serving {@code name}: durable in the
     * store before it returns, never handed out twice.
     *
     * @param caller who asks
     * @param name a name served by a segment generator
     * @param size how many IDs, 1 to {@code idgen.server.max-block-size}
     * @param above the highest ID the caller already served of the name, or 0; the block lies above it
     * @return the block
     */
    Segment takeBlock(Caller caller, String name, long size, long above);

    /**
     * @param texts the IDs as the generator's form writes them
     * @param numbers the same IDs as numbers when the form is a plain 64-bit number, else {@code null}
     */
    record IssuedIds(List<String> texts, long[] numbers) {}
}
