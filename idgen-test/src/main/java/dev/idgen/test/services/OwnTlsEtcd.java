package dev.idgen.test.services;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A single etcd member of the test's own that serves its clients over TLS only ({@code https://127.0.0.1:port}), on
 * free loopback ports, with a certificate authority, a server certificate (SAN {@code IP:127.0.0.1,DNS:localhost}) and
 * a client certificate made with {@code openssl} at start into a temporary directory (PEM files). With
 * {@code clientCertAuth} the member asks every client for a certificate of that authority
 * ({@code --client-cert-auth}). {@link #enableAuth} turns on etcd's user authentication through {@code etcdctl}.
 *
 * <p>The process and the directory are registered with {@link OwnProcesses}, whose shutdown hook kills and deletes
 * them if {@link #close()} does not run.
 */
public final class OwnTlsEtcd implements AutoCloseable {

    private static final String ETCD = "/usr/bin/etcd";
    private static final String ETCDCTL = "/usr/bin/etcdctl";

    /** How long the member may take to come up on a loaded machine. */
    private static final Duration START_DEADLINE = Duration.ofSeconds(60);

    /** How long one etcdctl command may take on a loaded machine. */
    private static final Duration COMMAND_DEADLINE = Duration.ofSeconds(30);

    private final Path dir;
    private final boolean clientCertAuth;
    private final int clientPort;
    private final int peerPort;
    private Process process;

    /** The server certificate's subject alternative names. */
    private final String subjectAltName;

    private OwnTlsEtcd(Path dir, boolean clientCertAuth, String subjectAltName) {
        this.dir = dir;
        this.clientCertAuth = clientCertAuth;
        this.subjectAltName = subjectAltName;
        this.clientPort = OwnProcesses.freePort(false);
        this.peerPort = OwnProcesses.freePort(false);
    }

    /**
     * Makes the certificates, starts the member and waits until it answers a health check over TLS.
     *
     * @param clientCertAuth whether clients must show a certificate of the test's authority
     * @return the running member
     * @throws IllegalStateException when etcd, etcdctl or openssl is not installed, or the member does not answer
     *         within 60 s
     */
    public static OwnTlsEtcd start(boolean clientCertAuth) throws Exception {
        return start(clientCertAuth, "IP:127.0.0.1,DNS:localhost");
    }

    /**
     * Like {@link #start(boolean)}, with a server certificate for other names, e.g. {@code DNS:localhost} only, to see
     * that a client checks the name it dialled against the certificate. etcdctl, which dials {@code 127.0.0.1}, then
     * skips that check.
     *
     * @param subjectAltName the server certificate's {@code subjectAltName} in openssl's syntax
     */
    public static OwnTlsEtcd start(boolean clientCertAuth, String subjectAltName) throws Exception {
        OwnProcesses.require("apt-get install etcd-server etcd-client", ETCD, ETCDCTL);
        OwnTlsEtcd etcd = new OwnTlsEtcd(OwnProcesses.createTempDir("idgen-etcd-tls-"), clientCertAuth, subjectAltName);
        try {
            TestCertificates.make(etcd.dir, etcd.subjectAltName);
            etcd.launch();
            etcd.awaitHealthy();
            return etcd;
        } catch (Exception | Error e) {
            etcd.close();
            throw e;
        }
    }

    private void launch() throws IOException {
        String peerUrl = "http://127.0.0.1:" + peerPort;
        List<String> command = new ArrayList<>(List.of(
                ETCD,
                "--name",
                "tls",
                "--data-dir",
                dir.resolve("tls.etcd").toString(),
                "--listen-client-urls",
                endpoint(),
                "--advertise-client-urls",
                endpoint(),
                "--listen-peer-urls",
                peerUrl,
                "--initial-advertise-peer-urls",
                peerUrl,
                "--initial-cluster",
                "tls=" + peerUrl,
                "--initial-cluster-token",
                "idgen-" + dir.getFileName(),
                "--initial-cluster-state",
                "new",
                "--cert-file",
                file("server.crt"),
                "--key-file",
                file("server.key")));
        if (clientCertAuth) {
            // etcd 3.4 asks every client for a certificate of --trusted-ca-file as soon as that is set, with
            // --client-cert-auth or without: a member that should take clients without one must not have it.
            command.addAll(List.of("--trusted-ca-file", file("ca.crt"), "--client-cert-auth"));
        }
        process = OwnProcesses.startServer(command, dir, dir.resolve("etcd.log"));
    }

    private void awaitHealthy() throws Exception {
        try {
            OwnProcesses.await(START_DEADLINE, "etcd to answer over TLS on " + endpoint(), () -> {
                if (!process.isAlive()) {
                    throw new IllegalStateException("etcd exited");
                }
                etcdctl(Duration.ofSeconds(10), "endpoint", "health", "--command-timeout=2s");
                return true;
            });
        } catch (IllegalStateException e) {
            throw new IllegalStateException(
                    e.getMessage() + "; its log ends:\n"
                            + OwnProcesses.logTail(dir.resolve("etcd.log")) + "\netcdctl's log ends:\n"
                            + OwnProcesses.logTail(dir.resolve("etcdctl.log")),
                    e);
        }
    }

    /**
     * Turns on etcd's authentication: a {@code root} user (which etcd needs first), and {@code user} with
     * {@code password}, allowed to read and write every key under {@code namespace} and nothing else.
     */
    public void enableAuth(String user, String password, String namespace) throws Exception {
        etcdctl(COMMAND_DEADLINE, "user", "add", "root:rootpw", "--interactive=false");
        etcdctl(COMMAND_DEADLINE, "user", "add", user + ":" + password, "--interactive=false");
        etcdctl(COMMAND_DEADLINE, "role", "add", "idgen");
        etcdctl(COMMAND_DEADLINE, "role", "grant-permission", "idgen", "--prefix=true", "readwrite", namespace);
        etcdctl(COMMAND_DEADLINE, "user", "grant-role", user, "idgen");
        etcdctl(COMMAND_DEADLINE, "auth", "enable");
    }

    private void etcdctl(Duration deadline, String... arguments) throws Exception {
        List<String> command = new ArrayList<>(List.of(ETCDCTL, "--endpoints", endpoint(), "--cacert", file("ca.crt")));
        if (clientCertAuth) {
            command.addAll(List.of("--cert", file("client.crt"), "--key", file("client.key")));
        }
        if (!subjectAltName.contains("IP:127.0.0.1")) {
            command.add("--insecure-skip-tls-verify");
        }
        command.addAll(List.of(arguments));
        ProcessBuilder etcdctl = new ProcessBuilder(command)
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(
                        dir.resolve("etcdctl.log").toFile()));
        etcdctl.environment().put("ETCDCTL_API", "3");
        OwnProcesses.run(etcdctl, dir.resolve("etcdctl.log"), deadline);
    }

    private String file(String name) {
        return dir.resolve(name).toString();
    }

    /** @return the client URL, {@code https://127.0.0.1:port} */
    public String endpoint() {
        return "https://127.0.0.1:" + clientPort;
    }

    /** @return the certificate authority's certificate (PEM), which signed the server's and the client's */
    public Path caCertificate() {
        return dir.resolve("ca.crt");
    }

    /** @return the client's certificate (PEM) */
    public Path clientCertificate() {
        return dir.resolve("client.crt");
    }

    /** @return the client's private key (PEM, PKCS#8, not encrypted) */
    public Path clientKey() {
        return dir.resolve("client.key");
    }

    /** Kills the member and deletes its directory. */
    @Override
    public void close() {
        try {
            OwnProcesses.kill(process, "etcd over TLS");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            process = null;
            OwnProcesses.deleteTempDir(dir);
        }
    }

    @Override
    public String toString() {
        return "OwnTlsEtcd[" + endpoint() + (clientCertAuth ? ", client certificates" : "") + "]";
    }
}
