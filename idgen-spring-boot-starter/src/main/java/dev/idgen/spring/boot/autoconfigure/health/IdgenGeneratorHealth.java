package dev.idgen.spring.boot.autoconfigure.health;

import dev.idgen.core.IdService;
import org.springframework.boot.health.contributor.Health;

/**
 * One backend's part of a generator's health. Each backend has one, registered as a bean; a generator's
 * {@link IdgenHealthIndicator} asks the one of its strategy (and those shared by every strategy), so that adding a
 * backend adds a contributor rather than a branch.
 */
public interface IdgenGeneratorHealth {

    /**
     * @return the strategy whose generators this reads, for example {@code ticket}, or {@code null} for a backend any
     *         generator may use (Redis)
     */
    String strategy();

    /**
     * Adds details to the generator's health, and marks it DOWN when the generator cannot issue IDs. Runs on the
     * indicator's own thread, within its time bound; it issues no ID.
     *
     * @param generator the generator's name ({@code default} or a named generator's)
     * @param service the generator
     * @param builder its health, UP so far
     */
    void contribute(String generator, IdService service, Health.Builder builder);
}
