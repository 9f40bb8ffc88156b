package dev.idgen.server;

/**
 * Who a request comes from, once its token was checked: the client's id as configured under
 * {@code idgen.server.clients.<id>}, or {@value #ANONYMOUS} when the server lets requests in without a token.
 *
 * @param client the client's id, the tag of its meters
 * @param transport {@code http} or {@code grpc}, the tag of its meters
 */
public record Caller(String client, String transport) {

    /** The client id of a request without a token, on a server with {@code idgen.server.anonymous=true}. */
    public static final String ANONYMOUS = "anonymous";
}
