package dev.idgen.core;

/**
 * A service that shapes the IDs of another (puts a period or shard bits into them) and issues through it. Health,
 * meters and logs describe the generator underneath: {@link #innermost(IdService)} finds it.
 */
public interface ForwardingIdService extends IdService {

    /**
     * @return the service this one issues through
     */
    IdService delegate();

    /**
     * @param service any service
     * @return the service at the bottom of a chain of {@link ForwardingIdService}s, or {@code service} itself
     */
    static IdService innermost(IdService service) {
        IdService current = service;
        while (current instanceof ForwardingIdService forwarding) {
            current = forwarding.delegate();
        }
        return current;
    }
}
