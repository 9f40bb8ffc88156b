package dev.idgen.server.access;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * What one client may do: the names it may use (directly, or through the generators serving them) and its rate limit.
 *
 * @param client the client's id
 * @param names the names it may use, without {@code *}
 * @param generators the generators whose names it may use
 * @param everyName whether it may use every name ({@code *}, or neither names nor generators configured)
 * @param limiter its rate limit, or {@code null} for none
 * @param inUse the names it has in use, capped, when it may use more than its listed names; else {@code null}
 */
public record ClientAccess(
        String client,
        Set<String> names,
        Set<String> generators,
        boolean everyName,
        RateLimiter limiter,
        ClientNames inUse) {

    /** The name in {@code idgen.server.clients.<id>.names} that stands for every name. */
    public static final String EVERY_NAME = "*";

    /**
     * @param client the client's id
     * @param inUse the names it has in use, capped
     * @return a client that may use every name, without a rate limit
     */
    public static ClientAccess unlimited(String client, ClientNames inUse) {
        return new ClientAccess(client, Set.of(), Set.of(), true, null, inUse);
    }

    /**
     * @param name a name the client may use
     * @return whether it may use it now: always for a listed name, within its cap of names in use otherwise
     */
    public boolean admit(String name) {
        return inUse == null || names.contains(name) || inUse.admit(name);
    }

    /**
     * @param name a valid sequence name
     * @param generator the generator serving it
     * @return whether this client may use the name
     */
    public boolean allows(String name, String generator) {
        return everyName || names.contains(name) || generators.contains(generator);
    }

    /**
     * @param generator a generator's name
     * @param generatorOfName which generator serves a name
     * @return whether this client may use at least one of the generator's names
     */
    public boolean reaches(String generator, Function<String, String> generatorOfName) {
        return everyName
                || generators.contains(generator)
                || names.stream().anyMatch(name -> generatorOfName.apply(name).equals(generator));
    }

    /** @return the names as configured, or just {@code *} when it may use every name */
    public List<String> namesShown() {
        return everyName ? List.of(EVERY_NAME) : List.copyOf(names);
    }

    /**
     * Takes a token from the client's rate limit.
     *
     * @return {@code null} when the request may pass, else how long until it may try again
     */
    public Duration tryAcquire() {
        return limiter == null ? null : limiter.tryAcquire();
    }
}
