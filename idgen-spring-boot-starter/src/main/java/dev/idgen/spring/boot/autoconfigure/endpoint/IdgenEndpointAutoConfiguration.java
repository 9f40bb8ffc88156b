package dev.idgen.spring.boot.autoconfigure.endpoint;

import dev.idgen.core.ForwardingIdService;
import dev.idgen.core.IdService;
import dev.idgen.core.ReadableIdService;
import dev.idgen.core.RoutingIdService;
import dev.idgen.core.form.IdForms;
import dev.idgen.spring.boot.autoconfigure.IdgenAutoConfiguration;
import dev.idgen.spring.boot.autoconfigure.IdgenStrategies;
import dev.idgen.spring.boot.autoconfigure.core.IdgenGenerators;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * The {@code idgen} Actuator endpoint, when Spring Boot's Actuator is on the classpath and the endpoint is available
 * (exposed, for example {@code management.endpoints.web.exposure.include=health,idgen}, and not turned off with
 * {@code management.endpoint.idgen.access=none}).
 */
@AutoConfiguration(after = IdgenAutoConfiguration.class)
@ConditionalOnClass(Endpoint.class)
@ConditionalOnBean({IdService.class, IdForms.class})
@ConditionalOnAvailableEndpoint(IdgenEndpoint.class)
public final class IdgenEndpointAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    IdgenEndpoint idgenEndpoint(
            IdService ids,
            IdForms forms,
            ObjectProvider<ReadableIdService> readableIds,
            ConfigurableListableBeanFactory beans,
            Environment environment) {
        return new IdgenEndpoint(
                ids, forms, stores(ids, IdgenGenerators.ofValid(beans, environment)), readableIds.getIfUnique());
    }

    /**
     * Where each generator keeps its state, as configured: only for a generator whose strategy is the configured one
     * (an application's own IdService may be something else).
     */
    private static Map<String, String> stores(IdService ids, IdgenGenerators generators) {
        Map<String, String> stores = new LinkedHashMap<>();
        if (generators == null) {
            return stores;
        }
        RoutingIdService.generatorsOf(ids).forEach((name, service) -> {
            IdgenGenerators.Definition definition = RoutingIdService.DEFAULT_GENERATOR.equals(name)
                    ? generators.defaultGenerator()
                    : generators.named().get(name);
            if (definition != null
                    && definition
                            .strategy()
                            .value()
                            .equals(ForwardingIdService.innermost(service).strategy())) {
                String store = store(definition);
                if (store != null) {
                    stores.put(name, store);
                }
            }
        });
        return stores;
    }

    private static String store(IdgenGenerators.Definition definition) {
        return IdgenStrategies.of(definition.strategy()).store(definition);
    }
}
