package dev.idgen.spring.boot.autoconfigure.etcd;

import dev.idgen.core.segment.SegmentStore;
import dev.idgen.core.spi.WorkerIdLeaseStore;
import dev.idgen.etcd.EtcdSegmentStore;
import dev.idgen.etcd.EtcdWorkerIdLeaseStore;
import dev.idgen.spring.boot.autoconfigure.core.ConditionalOnIdgenStrategy;
import dev.idgen.spring.boot.autoconfigure.core.IdgenGenerators;
import dev.idgen.spring.boot.autoconfigure.core.IdgenProperties;
import dev.idgen.spring.boot.autoconfigure.core.IdgenStoreUsers;
import dev.idgen.spring.boot.autoconfigure.diagnostics.IdgenStartupException;
import dev.idgen.spring.boot.autoconfigure.diagnostics.InvalidIdgenProperty;
import dev.idgen.spring.boot.autoconfigure.diagnostics.SslBundleProperty;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.ClientBuilder;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.net.ssl.SSLException;
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
 * idgen's etcd stores ({@code idgen.etcd.*}): one jetcd {@link Client} for every generator that keeps its segments
 * ({@code segment.store=etcd}), its Redis windows ({@code redis.window-store=etcd}) or its worker id leases
 * ({@code snowflake.worker-id-assigner=etcd}) in etcd. Configured only when one of them is asked for.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(name = {"io.etcd.jetcd.Client", "dev.idgen.etcd.EtcdSegmentStore"})
public class EtcdConfiguration {

    private static final String PREFIX = "idgen.etcd";

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    Client idgenEtcdClient(IdgenGenerators generators, ObjectProvider<SslBundles> sslBundles) {
        EtcdProperties etcd = generators.topLevel(EtcdProperties.SECTION);
        Duration timeout = timeout(etcd);
        List<URI> endpoints = endpoints(etcd);
        ClientBuilder builder = Client.builder()
                .endpoints(endpoints)
                .connectTimeout(timeout)
                // Fail a call to an unreachable cluster instead of queueing it until a member answers: idgen's stores
                // give up at their timeout anyway, and a queued call (or a health check's channel to a dead member)
                // would only pile up behind it.
                .waitForReady(false)
                // jetcd retries a failed read on its own; a retry that outlived the timeout would only keep a thread
                // busy.
                .retryMaxDuration(timeout);
        if (etcd.getUsername() != null) {
            if (etcd.getPassword() == null) {
                throw new InvalidConfigurationPropertyValueException(
                        PREFIX + ".password", null, "must be set with idgen.etcd.username");
            }
            builder.user(ByteSequence.from(etcd.getUsername(), StandardCharsets.UTF_8))
                    .password(ByteSequence.from(etcd.getPassword(), StandardCharsets.UTF_8));
        } else if (etcd.getPassword() != null) {
            throw new InvalidConfigurationPropertyValueException(
                    PREFIX + ".username", null, "must be set with idgen.etcd.password");
        }
        String bundleName = etcd.getSsl().getBundle();
        // jetcd talks to every endpoint the same way, TLS or not, whatever each URL's scheme says.
        boolean https = endpoints.stream().anyMatch(uri -> "https".equalsIgnoreCase(uri.getScheme()));
        if (https && endpoints.stream().anyMatch(uri -> "http".equalsIgnoreCase(uri.getScheme()))) {
            throw new InvalidConfigurationPropertyValueException(
                    PREFIX + ".endpoints",
                    String.join(",", etcd.getEndpoints()),
                    "mixes http and https URLs, but the client talks to every member the same way: make them all"
                            + " https (TLS) or all http");
        }
        if (bundleName != null) {
            SslBundle bundle = SslBundleProperty.require(PREFIX + ".ssl.bundle", bundleName, sslBundles);
            tls(builder, bundle);
        } else if (https) {
            tls(builder, null);
        }
        return builder.build();
    }

    private static void tls(ClientBuilder builder, SslBundle bundle) {
        try {
            builder.sslContext(ssl -> {
                if (bundle != null) {
                    ssl.trustManager(bundle.getManagers().getTrustManagerFactory());
                    if (bundle.getStores().getKeyStore() != null) {
                        ssl.keyManager(bundle.getManagers().getKeyManagerFactory());
                    }
                }
            });
        } catch (SSLException e) {
            throw new IdgenStartupException(
                    "TLS to etcd could not be set up: " + e.getMessage(),
                    "Check the SSL bundle named by " + PREFIX + ".ssl.bundle",
                    e);
        }
    }

    /**
     * The default generator's segment store when {@code idgen.segment.store=etcd}.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = {"io.etcd.jetcd.Client", "dev.idgen.etcd.EtcdSegmentStore"})
    @ConditionalOnIdgenStrategy(value = IdgenProperties.Strategy.SEGMENT, defaultOnly = true)
    @ConditionalOnProperty(name = "idgen.segment.store", havingValue = "etcd")
    static class EtcdSegmentStoreConfiguration {

        @Bean
        @ConditionalOnMissingBean(SegmentStore.class)
        SegmentStore idgenSegmentStore(BeanFactory beans) {
            return segmentStore(beans);
        }
    }

    /**
     * {@code idgen.snowflake.worker-id-assigner=etcd}.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = {"io.etcd.jetcd.Client", "dev.idgen.etcd.EtcdSegmentStore"})
    @ConditionalOnProperty(name = "idgen.snowflake.worker-id-assigner", havingValue = "etcd")
    static class EtcdLeaseConfiguration {

        @Bean
        @ConditionalOnMissingBean
        WorkerIdLeaseStore idgenWorkerIdLeaseStore(BeanFactory beans) {
            return leaseStore(beans);
        }
    }

    /**
     * etcd's part of the {@code idgen} health, when Spring Boot's health API is there: the cluster, its members and
     * leader, for each generator that uses etcd.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(
            name = {"org.springframework.boot.health.contributor.Health", "dev.idgen.etcd.EtcdClusterStatus"})
    static class EtcdHealthConfiguration {

        @Bean
        EtcdHealth idgenEtcdHealth(Client client, IdgenGenerators generators, IdgenStoreUsers users) {
            EtcdProperties etcd = generators.topLevel(EtcdProperties.SECTION);
            return new EtcdHealth(
                    client,
                    etcd.getEndpoints(),
                    etcd.getTimeout(),
                    users.consensusUsers(generators, EtcdEngine.INSTANCE));
        }
    }

    /**
     * The segment store on etcd every generator that keeps segments (or Redis windows) there shares: names are keys
     * under one namespace, so two generators that serve one name share its counter, as they would share a table.
     */
    public static SegmentStore segmentStore(BeanFactory beans) {
        EtcdProperties etcd = beans.getBean(IdgenGenerators.class).topLevel(EtcdProperties.SECTION);
        Client client = beans.getBean(Client.class);
        Duration timeout = timeout(etcd);
        if (etcd.getInitialValue() < 0) {
            throw new InvalidConfigurationPropertyValueException(
                    PREFIX + ".initial-value", etcd.getInitialValue(), "must be at least 0");
        }
        String endpoints = String.join(",", etcd.getEndpoints());
        return InvalidIdgenProperty.rethrowAsProperty(
                PREFIX,
                () -> new EtcdSegmentStore(client, etcd.getNamespace(), etcd.getInitialValue(), timeout, endpoints));
    }

    /**
     * The worker id lease store on etcd every Snowflake generator that leases there shares.
     */
    public static WorkerIdLeaseStore leaseStore(BeanFactory beans) {
        EtcdProperties etcd = beans.getBean(IdgenGenerators.class).topLevel(EtcdProperties.SECTION);
        Client client = beans.getBean(Client.class);
        Duration timeout = timeout(etcd);
        String endpoints = String.join(",", etcd.getEndpoints());
        return InvalidIdgenProperty.rethrowAsProperty(
                PREFIX, () -> new EtcdWorkerIdLeaseStore(client, etcd.getNamespace(), timeout, endpoints));
    }

    /** @return the endpoints, each checked; at least one */
    static List<URI> endpoints(EtcdProperties etcd) {
        List<String> configured = etcd.getEndpoints();
        if (configured == null || configured.isEmpty()) {
            throw new IdgenStartupException(
                    "idgen uses etcd, but " + PREFIX + ".endpoints is empty",
                    "Set " + PREFIX + ".endpoints to the cluster's client URLs, for example"
                            + " http://etcd-1:2379,http://etcd-2:2379,http://etcd-3:2379");
        }
        List<URI> endpoints = new ArrayList<>();
        for (int i = 0; i < configured.size(); i++) {
            String value = configured.get(i);
            String property = PREFIX + ".endpoints[" + i + "]";
            URI uri;
            try {
                uri = new URI(value == null ? "" : value.trim());
            } catch (URISyntaxException e) {
                throw new InvalidConfigurationPropertyValueException(
                        property, value, "is not a URL: " + e.getMessage());
            }
            String scheme = uri.getScheme() == null ? null : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!("http".equals(scheme) || "https".equals(scheme)) || uri.getHost() == null || uri.getPort() < 0) {
                throw new InvalidConfigurationPropertyValueException(
                        property,
                        value,
                        "must be an http or https URL with a host and a port, such as http://etcd-1:2379");
            }
            endpoints.add(uri);
        }
        return endpoints;
    }

    static Duration timeout(EtcdProperties etcd) {
        Duration timeout = etcd.getTimeout();
        if (timeout == null
                || timeout.compareTo(Duration.ofMillis(100)) < 0
                || timeout.compareTo(Duration.ofMinutes(1)) > 0) {
            throw new InvalidConfigurationPropertyValueException(
                    PREFIX + ".timeout", timeout, "must be between 100ms and 1m");
        }
        return timeout;
    }
}
