package dev.idgen.spring.boot.autoconfigure.diagnostics;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.ssl.NoSuchSslBundleException;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundles;

/** The SSL bundle a property names, or a start-up failure naming that property and where to define the bundle. */
public final class SslBundleProperty {

    private SslBundleProperty() {}

    /**
     * @param property the property naming the bundle, e.g. {@code idgen.etcd.ssl.bundle}
     * @param bundleName the bundle's name, set
     * @param sslBundles Spring Boot's bundles, if any are configured
     * @return the bundle
     * @throws IdgenStartupException when no bundles are configured at all
     * @throws IdgenPropertyValueException when none has that name
     */
    public static SslBundle require(String property, String bundleName, ObjectProvider<SslBundles> sslBundles) {
        SslBundles bundles = sslBundles.getIfAvailable();
        if (bundles == null) {
            throw new IdgenStartupException(
                    property + "=" + bundleName + " needs Spring Boot's SSL bundles",
                    "Define the bundle under spring.ssl.bundle.jks." + bundleName + " or spring.ssl.bundle.pem."
                            + bundleName);
        }
        try {
            return bundles.getBundle(bundleName);
        } catch (NoSuchSslBundleException e) {
            throw new IdgenPropertyValueException(
                    property,
                    bundleName,
                    "names no SSL bundle (" + e.getMessage() + ")",
                    "Define it under spring.ssl.bundle.pem." + bundleName + " or spring.ssl.bundle.jks." + bundleName
                            + ", or name a bundle that is defined");
        }
    }
}
