package dev.idgen.core;

/**
 * A name was refused because the service already serves as many names as it may ({@code maxNames}, the property
 * {@code idgen.max-names} in Spring Boot). Each name keeps state in memory (buffers, counters, meters), so names are
 * meant to be a fixed set such as {@code orders} and {@code invoices}, never values taken from each request. Names
 * served before the limit was reached keep working.
 */
public class NameLimitExceededException extends InvalidArgumentException {

    private static final long serialVersionUID = 1L;

    private final int limit;

    /**
     * @param name the refused name
     * @param limit the number of names the service may serve
     */
    public NameLimitExceededException(String name, int limit) {
        super(
                "name",
                name,
                "The name '" + name + "' is refused: this service already serves its limit of " + limit
                        + " names (maxNames, idgen.max-names in Spring Boot). Names are meant to be a fixed set such as"
                        + " 'orders', never values taken from each request; raise the limit if you really need more");
        this.limit = limit;
    }

    /**
     * @return the number of names the service may serve
     */
    public int limit() {
        return limit;
    }
}
