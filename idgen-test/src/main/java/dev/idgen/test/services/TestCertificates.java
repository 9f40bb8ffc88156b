package dev.idgen.test.services;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A certificate authority of the test's own, with a server and a client certificate it signed, made with
 * {@code openssl} into a directory as PEM files: {@code ca.crt}, {@code server.crt}/{@code server.key} (for
 * {@code serverAuth} and {@code clientAuth}, with the given subject alternative names) and
 * {@code client.crt}/{@code client.key} (for {@code clientAuth}). Valid for two days.
 */
public final class TestCertificates {

    private static final String OPENSSL = "openssl";

    /** How long one openssl command may take on a loaded machine. */
    private static final Duration COMMAND_DEADLINE = Duration.ofSeconds(30);

    /** The password of the PKCS#12 copy of the server's key, which only this class reads. */
    private static final String PKCS12_PASSWORD = "idgen-test";

    private final Path dir;

    private TestCertificates(Path dir) {
        this.dir = dir;
    }

    /**
     * @param dir where the files go; it exists
     * @param serverSubjectAltName the server certificate's {@code subjectAltName} in openssl's syntax, e.g.
     *     {@code IP:127.0.0.1,DNS:localhost}
     * @return the certificates
     * @throws IllegalStateException when openssl is not installed or fails
     */
    public static TestCertificates make(Path dir, String serverSubjectAltName) throws Exception {
        requireOpenssl();
        TestCertificates certificates = new TestCertificates(dir);
        Files.writeString(
                dir.resolve("server.ext"),
                "subjectAltName=" + serverSubjectAltName + "\n"
                        + "keyUsage=critical,digitalSignature,keyEncipherment\n"
                        + "extendedKeyUsage=serverAuth,clientAuth\n",
                StandardCharsets.US_ASCII);
        Files.writeString(
                dir.resolve("client.ext"),
                "keyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=clientAuth\n",
                StandardCharsets.US_ASCII);
        certificates.openssl(
                "req",
                "-x509",
                "-newkey",
                "rsa:2048",
                "-nodes",
                "-keyout",
                "ca.key",
                "-out",
                "ca.crt",
                "-days",
                "2",
                "-subj",
                "/CN=idgen test CA");
        certificates.signed("server", "/CN=localhost");
        certificates.signed("client", "/CN=idgen-test-client");
        return certificates;
    }

    /** @return the authority's certificate, which every client of the test trusts */
    public Path caCertificate() {
        return dir.resolve("ca.crt");
    }

    /** @return the server's certificate */
    public Path serverCertificate() {
        return dir.resolve("server.crt");
    }

    /** @return the server's private key, unencrypted */
    public Path serverKey() {
        return dir.resolve("server.key");
    }

    /** @return the client's certificate */
    public Path clientCertificate() {
        return dir.resolve("client.crt");
    }

    /** @return the client's private key, unencrypted */
    public Path clientKey() {
        return dir.resolve("client.key");
    }

    /** @return a TLS context that trusts the test's authority and nothing else */
    public SSLContext trustingCa() throws Exception {
        KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
        trusted.load(null, null);
        try (InputStream in = Files.newInputStream(caCertificate())) {
            trusted.setCertificateEntry(
                    "ca", CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(trusted);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trust.getTrustManagers(), null);
        return context;
    }

    /** @return a TLS context that presents the server's certificate, for a server of the test's own */
    public SSLContext serverContext() throws Exception {
        openssl(
                "pkcs12",
                "-export",
                "-in",
                "server.crt",
                "-inkey",
                "server.key",
                "-out",
                "server.p12",
                "-passout",
                "pass:" + PKCS12_PASSWORD);
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(dir.resolve("server.p12"))) {
            keys.load(in, PKCS12_PASSWORD.toCharArray());
        }
        KeyManagerFactory managers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        managers.init(keys, PKCS12_PASSWORD.toCharArray());
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(managers.getKeyManagers(), null, null);
        return context;
    }

    private void signed(String name, String subject) throws Exception {
        openssl(
                "req",
                "-newkey",
                "rsa:2048",
                "-nodes",
                "-keyout",
                name + ".key",
                "-out",
                name + ".csr",
                "-subj",
                subject);
        openssl(
                "x509",
                "-req",
                "-in",
                name + ".csr",
                "-CA",
                "ca.crt",
                "-CAkey",
                "ca.key",
                "-CAcreateserial",
                "-out",
                name + ".crt",
                "-days",
                "2",
                "-extfile",
                name + ".ext");
    }

    private void openssl(String... arguments) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(OPENSSL);
        command.addAll(List.of(arguments));
        OwnProcesses.run(command, dir, dir.resolve("openssl.log"), COMMAND_DEADLINE);
    }

    private static void requireOpenssl() throws InterruptedException {
        try {
            Process version = new ProcessBuilder(OPENSSL, "version")
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            if (version.waitFor() != 0) {
                throw new IllegalStateException("'openssl version' exited with " + version.exitValue());
            }
        } catch (IOException e) {
            throw new IllegalStateException(
                    "This test makes its TLS certificates with openssl, which is not on the PATH: install it with"
                            + " 'apt-get install openssl'",
                    e);
        }
    }
}
