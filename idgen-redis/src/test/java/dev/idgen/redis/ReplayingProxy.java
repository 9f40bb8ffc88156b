package dev.idgen.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP proxy on a free loopback port in front of one Redis at a time, which can lose one reply the way a network
 * does: it forwards a command to the server, drops the server's reply, and holds the client's connection open until
 * the test {@link #releaseHeld() releases} it (closes it). The client then reconnects to the proxy, which by then may
 * lead to another server ({@link #target}), and a client that replays what was unanswered (Lettuce's default) sends
 * the command again there.
 */
final class ReplayingProxy implements AutoCloseable {

    private final ServerSocket server;
    private final Thread acceptor;
    private final Set<Pair> pairs = ConcurrentHashMap.newKeySet();
    private volatile int targetPort;
    private volatile byte[] marker;
    private volatile CompletableFuture<Void> swallowed;
    private volatile Pair held;
    private volatile boolean closed;

    private ReplayingProxy(int targetPort) throws IOException {
        this.targetPort = targetPort;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.acceptor = new Thread(this::accept, "replaying-proxy-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** A proxy to the server on {@code targetPort} (loopback). */
    static ReplayingProxy to(int targetPort) throws IOException {
        return new ReplayingProxy(targetPort);
    }

    int port() {
        return server.getLocalPort();
    }

    String uri() {
        return "redis://127.0.0.1:" + port();
    }

    /** Where connections opened from now on lead; open ones stay where they are. */
    void target(int port) {
        this.targetPort = port;
    }

    /**
     * Arms the proxy: the next command whose bytes contain {@code marker} is forwarded, but its reply (and anything
     * after it on that connection) is dropped and the client's connection is held open.
     *
     * @return completes once the reply was dropped: the server ran the command, the client knows nothing of it
     */
    CompletableFuture<Void> swallowNextReplyTo(byte[] marker) {
        CompletableFuture<Void> future = new CompletableFuture<>();
        this.swallowed = future;
        this.marker = marker.clone();
        return future;
    }

    /** Closes the held connection (both sides), as a network failure would: the client reconnects. */
    void releaseHeld() {
        Pair pair = held;
        if (pair == null) {
            throw new IllegalStateException("No connection is held: no reply was swallowed");
        }
        held = null;
        pair.close();
    }

    private void accept() {
        while (!closed) {
            try {
                Socket client = server.accept();
                Socket upstream = new Socket();
                try {
                    upstream.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort), 5_000);
                } catch (IOException e) {
                    // The target is down: the client sees a closed connection and tries again.
                    client.close();
                    upstream.close();
                    continue;
                }
                Pair pair = new Pair(client, upstream);
                pairs.add(pair);
                pair.start();
            } catch (IOException e) {
                if (!closed) {
                    continue;
                }
            }
        }
    }

    /** One client connection and its connection to the server. */
    private final class Pair {
        final Socket client;
        final Socket upstream;
        volatile boolean swallowing;

        Pair(Socket client, Socket upstream) {
            this.client = client;
            this.upstream = upstream;
        }

        void start() {
            Thread up = new Thread(this::clientToServer, "replaying-proxy-up");
            Thread down = new Thread(this::serverToClient, "replaying-proxy-down");
            up.setDaemon(true);
            down.setDaemon(true);
            up.start();
            down.start();
        }

        private void clientToServer() {
            byte[] buffer = new byte[64 * 1024];
            byte[] tail = new byte[0];
            try (InputStream in = client.getInputStream();
                    OutputStream out = upstream.getOutputStream()) {
                int read;
                while ((read = in.read(buffer)) >= 0) {
                    byte[] armed = marker;
                    if (armed != null && !swallowing) {
                        // The marker may straddle two reads: look at the end of the previous one too.
                        byte[] window = new byte[tail.length + read];
                        System.arraycopy(tail, 0, window, 0, tail.length);
                        System.arraycopy(buffer, 0, window, tail.length, read);
                        if (indexOf(window, armed) >= 0) {
                            marker = null;
                            swallowing = true;
                        }
                        tail = Arrays.copyOfRange(window, Math.max(0, window.length - armed.length), window.length);
                    }
                    out.write(buffer, 0, read);
                    out.flush();
                }
            } catch (IOException e) {
                // closed
            } finally {
                if (!swallowing) {
                    close();
                }
            }
        }

        private void serverToClient() {
            byte[] buffer = new byte[64 * 1024];
            try (InputStream in = upstream.getInputStream();
                    OutputStream out = client.getOutputStream()) {
                int read;
                while ((read = in.read(buffer)) >= 0) {
                    if (swallowing) {
                        if (held != this) {
                            held = this;
                            swallowed.complete(null);
                        }
                        continue;
                    }
                    out.write(buffer, 0, read);
                    out.flush();
                }
            } catch (IOException e) {
                // closed
            } finally {
                if (!swallowing) {
                    close();
                }
            }
        }

        void close() {
            pairs.remove(this);
            try {
                client.close();
            } catch (IOException ignored) {
                // closing
            }
            try {
                upstream.close();
            } catch (IOException ignored) {
                // closing
            }
        }
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    @Override
    public void close() throws IOException {
        closed = true;
        server.close();
        for (Pair pair : pairs) {
            pair.close();
        }
    }
}
