package dev.idgen.spring.boot.autoconfigure.remote;

import dev.idgen.client.RemoteSegmentStore;
import dev.idgen.core.segment.SegmentStore;
import dev.idgen.spring.boot.autoconfigure.core.ConditionalOnIdgenStrategy;
import dev.idgen.spring.boot.autoconfigure.core.IdgenGenerators;
import dev.idgen.spring.boot.autoconfigure.core.IdgenProperties;
import dev.idgen.spring.boot.autoconfigure.core.IdgenStoreUsers;
import dev.idgen.spring.boot.autoconfigure.diagnostics.IdgenStartupException;
import dev.idgen.spring.boot.autoconfigure.diagnostics.InvalidIdgenProperty;
import dev.idgen.spring.boot.autoconfigure.diagnostics.SslBundleProperty;
import java.time.Duration;
import java.util.Map;
import javax.net.ssl.SSLContext;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * idgen's client of idgen servers ({@code idgen.remote.*}): one {@link RemoteSegmentStore} for every generator with
 * {@code segment.store=remote}, closed at shutdown. Configured only when some generator uses it, and only when
 * idgen-client is on the classpath (without it, the start-up check names the dependency first).
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(name = "dev.idgen.client.RemoteSegmentStore")
public class RemoteConfiguration {

    static final String PREFIX = "idgen.remote";

    /** Builder arguments whose property is not their kebab-case form under {@link #PREFIX}. */
    private static final Map<String, String> RENAMED = Map.of(
            "failureThreshold", "breaker.failure-threshold",
            "openDuration", "breaker.open-duration");

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    SharedRemoteStore idgenRemoteStore(
            IdgenGenerators generators, IdgenStoreUsers storeUsers, ObjectProvider<SslBundles> sslBundles) {
        RemoteProperties remote = generators.topLevel(RemoteProperties.SECTION);
        if (remote.getServers() == null || remote.getServers().isEmpty()) {
            throw new IdgenStartupException(
                    "idgen takes segments from idgen servers (" + firstUse(generators, storeUsers) + "), but " + PREFIX
                            + ".servers is empty",
                    "Set " + PREFIX + ".servers to the servers' base URLs, for example"
                            + " http://idgen-1:8080,http://idgen-2:8080");
        }
        checkBreaker(remote.getBreaker());
        SSLContext sslContext = sslContext(remote.getSsl().getBundle(), sslBundles);
        RemoteSegmentStore store = InvalidIdgenProperty.rethrowAsProperty(
                PREFIX,
                RENAMED,
                () -> RemoteSegmentStore.builder()
                        .servers(remote.getServers())
                        .token(remote.getToken())
                        .sslContext(sslContext)
                        .connectTimeout(remote.getConnectTimeout())
                        .requestTimeout(remote.getRequestTimeout())
                        .timeout(remote.getTimeout())
                        .failureThreshold(remote.getBreaker().getFailureThreshold())
                        .openDuration(remote.getBreaker().getOpenDuration())
                        .build());
        return new SharedRemoteStore(store, storeUsers.remoteUsers(generators));
    }

    /**
     * The default generator's segment store when {@code idgen.segment.store=remote}: the shared store, which the
     * shared bean closes (so no destroy method here).
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "dev.idgen.client.RemoteSegmentStore")
    @ConditionalOnIdgenStrategy(value = IdgenProperties.Strategy.SEGMENT, defaultOnly = true)
    @ConditionalOnProperty(name = "idgen.segment.store", havingValue = "remote")
    static class RemoteSegmentStoreConfiguration {

        @Bean(destroyMethod = "")
        @ConditionalOnMissingBean(SegmentStore.class)
        SegmentStore idgenSegmentStore(BeanFactory beans) {
            return segmentStore(beans);
        }
    }

    /**
     * The segment store every generator with {@code segment.store=remote} shares.
     */
    public static SegmentStore segmentStore(BeanFactory beans) {
        return beans.getBean(SharedRemoteStore.class).store();
    }

    private static void checkBreaker(RemoteProperties.Breaker breaker) {
        int threshold = breaker.getFailureThreshold();
        if (threshold < 1 || threshold > 1000) {
            throw new InvalidConfigurationPropertyValueException(
                    PREFIX + ".breaker.failure-threshold", threshold, "must be between 1 and 1000");
        }
        Duration open = breaker.getOpenDuration();
        if (open == null || open.isNegative() || open.compareTo(Duration.ofMinutes(10)) > 0) {
            throw new InvalidConfigurationPropertyValueException(
                    PREFIX + ".breaker.open-duration", open, "must be between 0s and 10m");
        }
    }

    private static SSLContext sslContext(String bundleName, ObjectProvider<SslBundles> sslBundles) {
        if (bundleName == null) {
            return null;
        }
        SslBundle bundle = SslBundleProperty.require(PREFIX + ".ssl.bundle", bundleName, sslBundles);
        return bundle.createSslContext();
    }

    private static String firstUse(IdgenGenerators generators, IdgenStoreUsers storeUsers) {
        IdgenGenerators.Definition user = generators.find(definition -> storeUsers.remoteUse(definition) != null);
        return user == null ? PREFIX : storeUsers.remoteUse(user);
    }
}
