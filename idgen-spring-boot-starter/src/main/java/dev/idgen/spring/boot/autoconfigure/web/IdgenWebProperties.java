package dev.idgen.spring.boot.autoconfigure.web;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * How a web application answers idgen's exceptions.
 */
@ConfigurationProperties("idgen.web")
public class IdgenWebProperties {

    private final ProblemDetails problemDetails = new ProblemDetails();

    public ProblemDetails getProblemDetails() {
        return problemDetails;
    }

    /**
     * idgen's exceptions as application/problem+json.
     */
    public static class ProblemDetails {

        /**
         * Whether a Spring MVC or WebFlux application answers idgen's exceptions from its controllers as
         * application/problem+json: InvalidArgumentException (a bad name, count or id) as 400 naming the argument,
         * IdGenerationException (such as StoreUnavailableException or ClockBackwardsException) as 503. The
         * application's own exception handlers win either way; off, these exceptions are theirs alone (else a 500).
         */
        private boolean enabled = true;

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }
    }
}
