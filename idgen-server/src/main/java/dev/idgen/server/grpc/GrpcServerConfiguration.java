package dev.idgen.server.grpc;

import dev.idgen.server.IdgenServerApi;
import dev.idgen.spring.boot.autoconfigure.diagnostics.IdgenPropertyValueException;
import dev.idgen.spring.boot.autoconfigure.diagnostics.SslBundleProperty;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.ConfigurableEnvironment;

/** The gRPC face, on unless {@code idgen.server.grpc.enabled=false}. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(GrpcServerProperties.class)
@ConditionalOnProperty(name = "idgen.server.grpc.enabled", havingValue = "true", matchIfMissing = true)
class GrpcServerConfiguration {

    @Bean
    GrpcServerLifecycle idgenGrpcServer(
            GrpcServerProperties properties,
            IdgenServerApi api,
            ObjectProvider<SslBundles> bundles,
            ConfigurableEnvironment environment) {
        int port = properties.getPort();
        if (port < 0 || port > 65_535) {
            throw new IdgenPropertyValueException(
                    "idgen.server.grpc.port",
                    port,
                    "must be between 0 (a free port) and 65535",
                    "Set idgen.server.grpc.port to a port from 1 to 65535, or idgen.server.grpc.enabled=false");
        }
        if (properties.getShutdownGracePeriod().isNegative()) {
            throw new IdgenPropertyValueException(
                    "idgen.server.grpc.shutdown-grace-period",
                    properties.getShutdownGracePeriod(),
                    "must be 0 or more",
                    "Set idgen.server.grpc.shutdown-grace-period to how long calls in flight may finish, e.g. 10s");
        }
        return new GrpcServerLifecycle(
                properties, new IdgenGrpcService(api), sslBundle(properties, bundles, environment), environment);
    }

    /**
     * The gRPC face's bundle, by default HTTP's ({@code server.ssl.bundle}): a server that serves HTTPS would
     * otherwise take the same bearer tokens over gRPC in plain text.
     */
    private static SslBundle sslBundle(
            GrpcServerProperties properties, ObjectProvider<SslBundles> bundles, ConfigurableEnvironment environment) {
        String name = properties.getSslBundle();
        if (name == null || name.isBlank()) {
            name = environment.getProperty("server.ssl.bundle");
        }
        if (name == null || name.isBlank()) {
            return null;
        }
        return SslBundleProperty.require(
                properties.getSslBundle() == null || properties.getSslBundle().isBlank()
                        ? "server.ssl.bundle"
                        : "idgen.server.grpc.ssl-bundle",
                name,
                bundles);
    }
}
