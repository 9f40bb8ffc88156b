package dev.idgen.spring.boot.autoconfigure.zookeeper;

import dev.idgen.core.segment.SegmentStore;
import dev.idgen.core.spi.WorkerIdAssigner;
import dev.idgen.core.spi.WorkerIdLeaseStore;
import dev.idgen.spring.boot.autoconfigure.core.ConditionalOnIdgenStrategy;
import dev.idgen.spring.boot.autoconfigure.core.IdgenGenerators;
import dev.idgen.spring.boot.autoconfigure.core.IdgenProperties;
import dev.idgen.spring.boot.autoconfigure.core.IdgenStoreUsers;
import dev.idgen.spring.boot.autoconfigure.diagnostics.IdgenStartupException;
import dev.idgen.spring.boot.autoconfigure.diagnostics.InvalidIdgenProperty;
import dev.idgen.zookeeper.LeafZooKeeperWorkerIdAssigner;
import dev.idgen.zookeeper.ZooKeeperSegmentStore;
import dev.idgen.zookeeper.ZooKeeperWorkerIdLeaseStore;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryUntilElapsed;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * idgen's ZooKeeper stores ({@code idgen.zookeeper.*}): one Curator client for every generator that keeps its
 * segments ({@code segment.store=zookeeper}), its Redis windows ({@code redis.window-store=zookeeper}) or its worker
 * id leases ({@code snowflake.worker-id-assigner=zookeeper}) in ZooKeeper, or take worker ids from Leaf's nodes
 * there ({@code snowflake.worker-id-assigner=leaf-zookeeper}). Configured only when one of them is asked
 * for.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(
        name = {"org.apache.curator.framework.CuratorFramework", "dev.idgen.zookeeper.ZooKeeperSegmentStore"})
public class ZooKeeperConfiguration {

    private static final String PREFIX = "idgen.zookeeper";

    /** host:port, the host a name, an IPv4 address or a bracketed IPv6 address; an optional chroot is refused. */
    private static final Pattern SERVER = Pattern.compile("(\\[[0-9A-Fa-f:.]+]|[A-Za-z0-9.-]+):\\d{1,5}");

    private static final Pattern NAMESPACE = Pattern.compile("[A-Za-z0-9._-]{1,128}");

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    CuratorFramework idgenCuratorFramework(IdgenGenerators generators) {
        ZooKeeperProperties zookeeper = generators.topLevel(ZooKeeperProperties.SECTION);
        String connectString = connectString(zookeeper);
        Duration timeout = timeout(zookeeper);
        Duration session = duration(
                zookeeper.getSessionTimeout(),
                "session-timeout",
                Duration.ofSeconds(1),
                Duration.ofMinutes(10),
                "1s and 10m");
        Duration connection = duration(
                zookeeper.getConnectionTimeout(),
                "connection-timeout",
                Duration.ofMillis(100),
                Duration.ofMinutes(1),
                "100ms and 1m");
        CuratorFramework client = CuratorFrameworkFactory.builder()
                .connectString(connectString)
                .sessionTimeoutMs((int) session.toMillis())
                .connectionTimeoutMs((int) connection.toMillis())
                // Retries end with the operation's own timeout: idgen's stores bound every call by it anyway.
                .retryPolicy(new RetryUntilElapsed((int) timeout.toMillis(), 100))
                .build();
        client.start();
        return client;
    }

    /**
     * The default generator's segment store when {@code idgen.segment.store=zookeeper}.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(
            name = {"org.apache.curator.framework.CuratorFramework", "dev.idgen.zookeeper.ZooKeeperSegmentStore"})
    @ConditionalOnIdgenStrategy(value = IdgenProperties.Strategy.SEGMENT, defaultOnly = true)
    @ConditionalOnProperty(name = "idgen.segment.store", havingValue = "zookeeper")
    static class ZooKeeperSegmentStoreConfiguration {

        @Bean
        @ConditionalOnMissingBean(SegmentStore.class)
        SegmentStore idgenSegmentStore(BeanFactory beans) {
            return segmentStore(beans);
        }
    }

    /**
     * {@code idgen.snowflake.worker-id-assigner=zookeeper}.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(
            name = {"org.apache.curator.framework.CuratorFramework", "dev.idgen.zookeeper.ZooKeeperSegmentStore"})
    @ConditionalOnProperty(name = "idgen.snowflake.worker-id-assigner", havingValue = "zookeeper")
    static class ZooKeeperLeaseConfiguration {

        @Bean
        @ConditionalOnMissingBean
        WorkerIdLeaseStore idgenWorkerIdLeaseStore(BeanFactory beans) {
            return leaseStore(beans);
        }
    }

    /**
     * ZooKeeper's part of the {@code idgen} health, when Spring Boot's health API is there: the ensemble, its servers
     * and leader, the session, for each generator that uses ZooKeeper.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(
            name = {"org.springframework.boot.health.contributor.Health", "dev.idgen.zookeeper.ZooKeeperEnsembleStatus"
            })
    static class ZooKeeperHealthConfiguration {

        @Bean
        ZooKeeperHealth idgenZooKeeperHealth(
                CuratorFramework client, IdgenGenerators generators, IdgenStoreUsers users) {
            return new ZooKeeperHealth(
                    client,
                    generators.topLevel(ZooKeeperProperties.SECTION).getTimeout(),
                    users.consensusUsers(generators, ZooKeeperEngine.INSTANCE));
        }
    }

    /**
     * The segment store on ZooKeeper every generator that keeps segments (or Redis windows) there shares: names are
     * znodes under one base path, so two generators that serve one name share its counter, as they would share a
     * table.
     */
    public static SegmentStore segmentStore(BeanFactory beans) {
        ZooKeeperProperties zookeeper = beans.getBean(IdgenGenerators.class).topLevel(ZooKeeperProperties.SECTION);
        CuratorFramework client = beans.getBean(CuratorFramework.class);
        Duration timeout = timeout(zookeeper);
        if (zookeeper.getInitialValue() < 0) {
            throw new InvalidConfigurationPropertyValueException(
                    PREFIX + ".initial-value", zookeeper.getInitialValue(), "must be at least 0");
        }
        String basePath = basePath(zookeeper);
        return InvalidIdgenProperty.rethrowAsProperty(
                PREFIX, () -> new ZooKeeperSegmentStore(client, basePath, zookeeper.getInitialValue(), timeout));
    }

    /**
     * The worker id lease store on ZooKeeper every Snowflake generator that leases there shares.
     */
    public static WorkerIdLeaseStore leaseStore(BeanFactory beans) {
        ZooKeeperProperties zookeeper = beans.getBean(IdgenGenerators.class).topLevel(ZooKeeperProperties.SECTION);
        CuratorFramework client = beans.getBean(CuratorFramework.class);
        Duration timeout = timeout(zookeeper);
        String basePath = basePath(zookeeper);
        return InvalidIdgenProperty.rethrowAsProperty(
                PREFIX, () -> new ZooKeeperWorkerIdLeaseStore(client, basePath, timeout));
    }

    /**
     * {@code snowflake.worker-id-assigner=leaf-zookeeper}: a worker id from Leaf's nodes under
     * {@code /snowflake/<name>}, outside idgen.zookeeper.namespace (the Leaf servers' paths), with the shared client.
     *
     * @param prefix the generator's {@code snowflake.leaf} property prefix, named in errors
     */
    public static WorkerIdAssigner leafAssigner(BeanFactory beans, String prefix, String name, String ip, int port) {
        ZooKeeperProperties zookeeper = beans.getBean(IdgenGenerators.class).topLevel(ZooKeeperProperties.SECTION);
        CuratorFramework client = beans.getBean(CuratorFramework.class);
        Duration timeout = timeout(zookeeper);
        return InvalidIdgenProperty.rethrowAsProperty(
                prefix,
                Map.of("leafName", "name", "ip", "address", "port", "address"),
                () -> new LeafZooKeeperWorkerIdAssigner(client, name, ip, port, timeout));
    }

    static String connectString(ZooKeeperProperties zookeeper) {
        String connectString = zookeeper.getConnectString();
        if (connectString == null || connectString.isBlank()) {
            throw new IdgenStartupException(
                    "idgen uses ZooKeeper, but " + PREFIX + ".connect-string is not set",
                    "Set " + PREFIX + ".connect-string to the ensemble's servers, for example"
                            + " zk-1:2181,zk-2:2181,zk-3:2181");
        }
        for (String server : connectString.split(",", -1)) {
            if (!SERVER.matcher(server.trim()).matches()) {
                throw new InvalidConfigurationPropertyValueException(
                        PREFIX + ".connect-string",
                        connectString,
                        "must be host:port pairs separated by commas (no chroot: use " + PREFIX + ".namespace), but '"
                                + server + "' is not one");
            }
        }
        return connectString.replace(" ", "");
    }

    static String basePath(ZooKeeperProperties zookeeper) {
        String namespace = zookeeper.getNamespace();
        if (namespace == null || !NAMESPACE.matcher(namespace).matches()) {
            throw new InvalidConfigurationPropertyValueException(
                    PREFIX + ".namespace", namespace, "must be 1 to 128 of A-Z a-z 0-9 . _ - (one znode name)");
        }
        return "/" + namespace;
    }

    static Duration timeout(ZooKeeperProperties zookeeper) {
        return duration(
                zookeeper.getTimeout(), "timeout", Duration.ofMillis(100), Duration.ofMinutes(1), "100ms and 1m");
    }

    private static Duration duration(Duration value, String key, Duration min, Duration max, String range) {
        if (value == null || value.compareTo(min) < 0 || value.compareTo(max) > 0) {
            throw new InvalidConfigurationPropertyValueException(PREFIX + "." + key, value, "must be between " + range);
        }
        return value;
    }
}
