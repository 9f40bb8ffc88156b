package dev.idgen.server.grpc;

import dev.idgen.server.IdgenServerApi;
import dev.idgen.server.IdgenServerConfiguration;
import dev.idgen.spring.boot.autoconfigure.diagnostics.IdgenPropertyValueException;
import dev.idgen.spring.boot.autoconfigure.diagnostics.SslBundleProperty;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.boot.web.server.Ssl;
import org.springframework.boot.web.server.WebServerSslBundle;
import org.springframework.boot.web.server.autoconfigure.ServerProperties;
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
            ObjectProvider<ServerProperties> serverProperties,
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
        IdgenServerConfiguration.inRange("idgen.server.grpc.threads", properties.getThreads(), 4, 4096);
        IdgenServerConfiguration.inRange(
                "idgen.server.grpc.max-calls-per-connection", properties.getMaxCallsPerConnection(), 1, 10_000);
        ServerProperties server = serverProperties.getIfAvailable();
        return new GrpcServerLifecycle(
                properties,
                new IdgenGrpcService(api),
                api,
                tls(properties, server == null ? null : server.getSsl(), bundles),
                address(properties, server),
                environment);
    }

    /**
     * gRPC's TLS: {@code idgen.server.grpc.ssl-bundle} when set, else whatever HTTP serves, be it
     * {@code server.ssl.bundle} or the classic {@code server.ssl.key-store} or {@code server.ssl.certificate}: a server
     * that serves HTTPS would otherwise take the same bearer tokens over gRPC in plain text.
     *
     * @return the TLS to serve, or {@code null} for plain text (HTTP serves plain text too)
     */
    static GrpcTls tls(GrpcServerProperties properties, Ssl ssl, ObjectProvider<SslBundles> bundles) {
        String own = properties.getSslBundle();
        if (own != null && !own.isBlank()) {
            SslBundle bundle = SslBundleProperty.require("idgen.server.grpc.ssl-bundle", own, bundles);
            return new GrpcTls(bundle, bundle.getStores().getTrustStore() != null);
        }
        if (!Ssl.isEnabled(ssl)) {
            return null;
        }
        String property = ssl.getBundle() != null && !ssl.getBundle().isBlank()
                ? "server.ssl.bundle"
                : ssl.getKeyStore() != null ? "server.ssl.key-store" : "server.ssl.certificate";
        SslBundle bundle;
        try {
            bundle = WebServerSslBundle.get(ssl, bundles.getIfAvailable());
        } catch (RuntimeException e) {
            throw new IdgenPropertyValueException(
                    property,
                    property.equals("server.ssl.bundle") ? ssl.getBundle() : "(see server.ssl.*)",
                    "gRPC serves the same TLS as HTTP, and it cannot be read: " + e.getMessage(),
                    "Fix server.ssl.*, or give gRPC a bundle of its own with idgen.server.grpc.ssl-bundle.");
        }
        boolean clientAuth = property.equals("server.ssl.bundle")
                ? bundle.getStores().getTrustStore() != null
                : ssl.getClientAuth() == Ssl.ClientAuth.NEED;
        return new GrpcTls(bundle, clientAuth);
    }

    /** gRPC's address: {@code idgen.server.grpc.address} when set, else HTTP's {@code server.address}, else every one. */
    static String address(GrpcServerProperties properties, ServerProperties server) {
        if (!properties.getAddress().isBlank()) {
            return properties.getAddress();
        }
        return server == null || server.getAddress() == null
                ? ""
                : server.getAddress().getHostAddress();
    }
}
