package dev.idgen.client;

import dev.idgen.core.IdGenerationException;
import java.net.URI;

/**
 * A server refused the request in a way every server would (401: the token is wrong or missing; 404: the name is not
 * a segment name on the server), so the store failed at once instead of asking the other servers. It is a
 * configuration error, not an outage: retrying does not help. A 403 (the client may not use the name) is a
 * {@link dev.idgen.core.PermissionDeniedException} instead.
 */
public class RemoteRefusalException extends IdGenerationException {

    private static final long serialVersionUID = 1L;

    private final transient URI server;

    private final int status;

    private final String detail;

    /**
     * @param server the server that refused
     * @param status its HTTP status
     * @param detail what it said (the problem's detail or title), may be null
     * @param message the whole message
     */
    public RemoteRefusalException(URI server, int status, String detail, String message) {
        super(message);
        this.server = server;
        this.status = status;
        this.detail = detail;
    }

    /** @return the server that refused */
    public URI server() {
        return server;
    }

    /** @return its HTTP status: 401 or 404 */
    public int status() {
        return status;
    }

    /** @return what the server said, or null */
    public String detail() {
        return detail;
    }
}
