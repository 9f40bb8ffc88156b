package dev.idgen.server.grpc;

import dev.idgen.server.IdgenServerApi;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.ssl.NoSuchSslBundleException;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The gRPC face, on unless {@code idgen.server.grpc.enabled=false}. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(GrpcServerProperties.class)
@ConditionalOnProperty(name = "idgen.server.grpc.enabled", havingValue = "true", matchIfMissing = true)
class GrpcServerConfiguration {

    @Bean
    GrpcServerLifecycle idgenGrpcServer(
            GrpcServerProperties properties, IdgenServerApi api, ObjectProvider<SslBundles> bundles) {
        int port = properties.getPort();
        if (port < 0 || port > 65_535) {
            throw new InvalidConfigurationPropertyValueException(
                    "idgen.server.grpc.port", port, "must be between 0 (a free port) and 65535");
        }
        if (properties.getShutdownGracePeriod().isNegative()) {
            throw new InvalidConfigurationPropertyValueException(
                    "idgen.server.grpc.shutdown-grace-period",
                    properties.getShutdownGracePeriod(),
                    "must be 0 or more");
        }
        return new GrpcServerLifecycle(properties, new IdgenGrpcService(api), sslBundle(properties, bundles));
    }

    private static SslBundle sslBundle(GrpcServerProperties properties, ObjectProvider<SslBundles> bundles) {
        String name = properties.getSslBundle();
        if (name == null || name.isBlank()) {
            return null;
        }
        SslBundles available = bundles.getIfAvailable();
        try {
            if (available == null) {
                throw new NoSuchSslBundleException(name, "no SSL bundles are configured");
            }
            return available.getBundle(name);
        } catch (NoSuchSslBundleException e) {
            throw new InvalidConfigurationPropertyValueException(
                    "idgen.server.grpc.ssl-bundle",
                    name,
                    "names no SSL bundle: define it under spring.ssl.bundle.pem." + name + " or spring.ssl.bundle.jks."
                            + name + " (" + e.getMessage() + ")");
        }
    }
}
