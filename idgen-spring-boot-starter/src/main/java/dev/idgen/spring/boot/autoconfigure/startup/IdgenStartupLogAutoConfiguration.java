package dev.idgen.spring.boot.autoconfigure.startup;

import dev.idgen.core.ForwardingIdService;
import dev.idgen.core.IdService;
import dev.idgen.core.RoutingIdService;
import dev.idgen.spring.boot.autoconfigure.IdgenAutoConfiguration;
import dev.idgen.spring.boot.autoconfigure.IdgenStrategies;
import dev.idgen.spring.boot.autoconfigure.core.IdgenProperties;
import java.util.StringJoiner;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.context.annotation.Bean;

/**
 * One INFO line at start-up saying which generator the application got: the strategy and, for Snowflake, the worker
 * id and where it came from (the lease, its owner and ttl), which is what people look for first.
 */
@AutoConfiguration(after = IdgenAutoConfiguration.class)
@ConditionalOnBean(IdService.class)
public final class IdgenStartupLogAutoConfiguration {

    @Bean
    SmartInitializingSingleton idgenStartupLog(IdService idService) {
        return () -> StartupLog.LOG.info(StartupLog.describe(idService));
    }

    static final class StartupLog {

        static final Log LOG = LogFactory.getLog(IdgenStartupLogAutoConfiguration.class);

        private static final String READY = "idgen ready: ";

        private StartupLog() {}

        static String describe(IdService idService) {
            if (idService instanceof RoutingIdService routing) {
                // One clause per generator: the default one first, then each named one.
                StringJoiner line = new StringJoiner("; ", READY, "");
                routing.generators()
                        .forEach((name, generator) -> line.add(
                                "generator " + name + ": " + describe(generator).substring(READY.length())));
                return line.toString();
            }
            StringBuilder line = new StringBuilder(READY).append("strategy=").append(idService.strategy());
            if (idService instanceof ForwardingIdService forwarding) {
                line.append(", form=").append(forwarding);
                idService = ForwardingIdService.innermost(forwarding);
            }
            line.append(", ").append(describeBackend(idService));
            return line.toString();
        }

        /** The strategy's own words for its generator, or the store's description. */
        private static String describeBackend(IdService backend) {
            for (IdgenProperties.Strategy strategy : IdgenProperties.Strategy.values()) {
                String described = IdgenStrategies.of(strategy).describeAtStartup(backend);
                if (described != null) {
                    return described;
                }
            }
            return "service=" + backend;
        }
    }
}
