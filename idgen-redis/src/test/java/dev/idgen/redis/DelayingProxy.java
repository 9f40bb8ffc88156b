package dev.idgen.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP proxy on a free loopback port in front of one Redis, which can hold each new connection for a while before it
 * forwards anything: the client's TCP connect succeeds at once, but its handshake ({@code HELLO}) gets no answer until
 * the delay has passed, as with a server or a network path that is slow to accept. Connections already open are
 * forwarded as they are. Only the acceptor thread opens connections, so the delays go to them in the order they came.
 */
final class DelayingProxy implements AutoCloseable {

    private final ServerSocket server;
    private final int targetPort;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final AtomicInteger delayed = new AtomicInteger();
    private volatile long[] delays = new long[0];
    private int opened;
    private volatile boolean closed;

    DelayingProxy(int targetPort) throws IOException {
        this.targetPort = targetPort;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::accept, "delaying-proxy-accept-" + targetPort);
        acceptor.setDaemon(true);
        acceptor.start();
    }

    int port() {
        return server.getLocalPort();
    }

    int targetPort() {
        return targetPort;
    }

    /**
     * Holds the connections opened from now on, each for the next of {@code millis} in turn (after the last, the
     * first again); 0 forwards one at once.
     */
    void delayNewConnections(long... millis) {
        long[] nanos = new long[millis.length];
        for (int i = 0; i < millis.length; i++) {
            nanos[i] = TimeUnit.MILLISECONDS.toNanos(millis[i]);
        }
        this.delays = nanos;
    }

    /** Forwards connections opened from now on at once. */
    void stopDelaying() {
        this.delays = new long[0];
    }

    /** @return how many connections were held before being forwarded */
    int delayedConnections() {
        return delayed.get();
    }

    private void accept() {
        while (!closed) {
            Socket client;
            try {
                client = server.accept();
            } catch (IOException e) {
                continue;
            }
            sockets.add(client);
            long[] current = delays;
            long delay = current.length == 0 ? 0 : current[opened++ % current.length];
            Thread opener = new Thread(() -> open(client, delay), "delaying-proxy-open-" + targetPort);
            opener.setDaemon(true);
            opener.start();
        }
    }

    private void open(Socket client, long delayNanos) {
        Socket upstream = new Socket();
        sockets.add(upstream);
        try {
            if (delayNanos > 0) {
                delayed.incrementAndGet();
                TimeUnit.NANOSECONDS.sleep(delayNanos);
            }
            upstream.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort), 5_000);
        } catch (IOException | InterruptedException e) {
            // The target is down (or the proxy closing): the client sees its connection closed.
            closeQuietly(client);
            closeQuietly(upstream);
            return;
        }
        pipe(client, upstream, "up");
        pipe(upstream, client, "down");
    }

    private void pipe(Socket from, Socket to, String direction) {
        Thread thread = new Thread(
                () -> {
                    byte[] buffer = new byte[64 * 1024];
                    try {
                        InputStream in = from.getInputStream();
                        OutputStream out = to.getOutputStream();
                        int read;
                        while ((read = in.read(buffer)) >= 0) {
                            out.write(buffer, 0, read);
                            out.flush();
                        }
                    } catch (IOException e) {
                        // closed
                    } finally {
                        closeQuietly(from);
                        closeQuietly(to);
                    }
                },
                "delaying-proxy-" + direction + "-" + targetPort);
        thread.setDaemon(true);
        thread.start();
    }

    private void closeQuietly(Socket socket) {
        sockets.remove(socket);
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing
        }
    }

    @Override
    public void close() throws IOException {
        closed = true;
        server.close();
        for (Socket socket : sockets) {
            closeQuietly(socket);
        }
    }
}
