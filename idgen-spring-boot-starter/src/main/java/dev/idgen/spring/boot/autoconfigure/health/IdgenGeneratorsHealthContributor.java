package dev.idgen.spring.boot.autoconfigure.health;

import dev.idgen.core.IdService;
import dev.idgen.spring.boot.autoconfigure.core.IdgenGeneratorHealth;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.HealthContributor;

/**
 * The {@code idgen} health with named generators: one {@link IdgenHealthIndicator} per generator, under the
 * generator's name ({@code idgen/default}, {@code idgen/invoice}, ...). The group is DOWN when any generator is.
 */
public final class IdgenGeneratorsHealthContributor implements CompositeHealthContributor, AutoCloseable {

    private final Map<String, IdgenHealthIndicator> indicators = new LinkedHashMap<>();

    /**
     * @param generators every generator by name
     * @param contributors each backend's contributor
     */
    public IdgenGeneratorsHealthContributor(
            Map<String, IdService> generators, List<IdgenGeneratorHealth> contributors) {
        generators.forEach(
                (name, generator) -> indicators.put(name, new IdgenHealthIndicator(name, generator, contributors)));
    }

    /**
     * @return each generator's indicator, by generator name
     */
    public Map<String, IdgenHealthIndicator> indicators() {
        return Collections.unmodifiableMap(indicators);
    }

    @Override
    public HealthContributor getContributor(String name) {
        return indicators.get(name);
    }

    @Override
    public Stream<Entry> stream() {
        return indicators.entrySet().stream().map(entry -> new Entry(entry.getKey(), entry.getValue()));
    }

    /** Stops every indicator's threads. */
    @Override
    public void close() {
        indicators.values().forEach(IdgenHealthIndicator::close);
    }
}
