package dev.idgen.core;

import java.util.function.Predicate;

/**
 * A service that keeps state in memory per name (buffers, windows, meters) and can drop it for names that will not be
 * asked for again, such as the counters of periods that have passed ({@link dev.idgen.core.period.PeriodicIdService}
 * forgets them). A forgotten name no longer counts towards the service's {@code maxNames}.
 *
 * <p>A forgotten name that is asked for again starts afresh from its store and never repeats an ID: what was held in
 * memory for it and not yet issued (the unused rest of a segment, a Redis window) is a gap. A call that is in flight
 * for the name while it is forgotten completes as if the name were still there.
 */
public interface ForgetsNames {

    /**
     * Drops the in-memory state of every name that {@code which} accepts.
     *
     * @param which tested once with each name the service holds state for
     * @return how many names were forgotten
     */
    int forgetNames(Predicate<? super String> which);
}
