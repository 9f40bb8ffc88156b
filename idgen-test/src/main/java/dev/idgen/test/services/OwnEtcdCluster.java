package dev.idgen.test.services;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An etcd cluster of the test's own: {@code members} {@code /usr/bin/etcd} processes on free loopback ports, each with
 * a temporary data directory. A test kills (SIGKILL), restarts, pauses (SIGSTOP) and resumes (SIGCONT) single members
 * to see what a client does when the leader goes away or the quorum is lost.
 *
 * <p>The members keep etcd's default timing: a heartbeat every 100 ms and an election timeout of 1000 ms, so a new
 * leader is elected within a few seconds of the old one going silent, and etcd's minimum lease TTL is its default
 * (2 s, {@code 3/2} of the election timeout rounded up to seconds). A member restarted with {@link #restart(int)} keeps
 * its data directory and rejoins with {@code --initial-cluster-state existing}.
 *
 * <p>The processes and directories are registered with {@link OwnProcesses}, whose shutdown hook kills and deletes
 * them if {@link #close()} does not run.
 */
public final class OwnEtcdCluster implements AutoCloseable {

    private static final String ETCD = "/usr/bin/etcd";

    /** How long a member may take to come up, or a cluster to elect a leader, on a loaded machine. */
    private static final Duration START_DEADLINE = Duration.ofSeconds(60);

    private static final Pattern LEADER = Pattern.compile("\"leader\"\\s*:\\s*\"?(\\d+)");
    private static final Pattern MEMBER_ID = Pattern.compile("\"member_id\"\\s*:\\s*\"?(\\d+)");

    private final Path dir;
    private final int[] clientPorts;
    private final int[] peerPorts;
    private final Process[] processes;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofMillis(500)).build();

    private OwnEtcdCluster(Path dir, int members) {
        this.dir = dir;
        this.clientPorts = new int[members];
        this.peerPorts = new int[members];
        this.processes = new Process[members];
        for (int i = 0; i < members; i++) {
            clientPorts[i] = OwnProcesses.freePort(false);
            peerPorts[i] = OwnProcesses.freePort(false);
        }
    }

    /**
     * Starts a new cluster of {@code members} members and waits until it has a leader.
     *
     * @param members how many members, 1 or more (3 for a cluster that survives one member's loss)
     * @return the running cluster
     * @throws IllegalStateException when etcd is not installed, or the cluster does not elect a leader within 60 s
     */
    public static OwnEtcdCluster start(int members) throws Exception {
        if (members < 1) {
            throw new IllegalArgumentException("members must be at least 1, but was " + members);
        }
        OwnProcesses.require("apt-get install etcd-server", ETCD);
        OwnEtcdCluster cluster = new OwnEtcdCluster(OwnProcesses.createTempDir("idgen-etcd-"), members);
        try {
            for (int i = 0; i < members; i++) {
                cluster.launch(i, "new");
            }
            cluster.awaitLeader(START_DEADLINE);
            return cluster;
        } catch (Exception | Error e) {
            cluster.close();
            throw e;
        }
    }

    private String name(int member) {
        return "m" + (member + 1);
    }

    private String peerUrl(int member) {
        return "http://127.0.0.1:" + peerPorts[member];
    }

    private String clientUrl(int member) {
        return "http://127.0.0.1:" + clientPorts[member];
    }

    private Path log(int member) {
        return dir.resolve(name(member) + ".log");
    }

    private void launch(int member, String state) throws IOException {
        List<String> initial = new ArrayList<>();
        for (int i = 0; i < processes.length; i++) {
            initial.add(name(i) + "=" + peerUrl(i));
        }
        List<String> command = List.of(
                ETCD,
                "--name",
                name(member),
                "--data-dir",
                dir.resolve(name(member) + ".etcd").toString(),
                "--listen-client-urls",
                clientUrl(member),
                "--advertise-client-urls",
                clientUrl(member),
                "--listen-peer-urls",
                peerUrl(member),
                "--initial-advertise-peer-urls",
                peerUrl(member),
                "--initial-cluster",
                String.join(",", initial),
                "--initial-cluster-token",
                "idgen-" + dir.getFileName(),
                "--initial-cluster-state",
                state);
        processes[member] = OwnProcesses.startServer(command, dir, log(member));
    }

    /** @return every member's client URL, for example {@code http://127.0.0.1:23791}, in member order */
    public List<String> clientUrls() {
        List<String> urls = new ArrayList<>();
        for (int i = 0; i < processes.length; i++) {
            urls.add(clientUrl(i));
        }
        return urls;
    }

    /** @return the client URLs joined with commas */
    public String endpoints() {
        return String.join(",", clientUrls());
    }

    /** @return how many members the cluster was started with */
    public int size() {
        return processes.length;
    }

    /**
     * @return the index of the member that is the leader now, as a member that answers the status API sees it and the
     *         leader itself confirms
     * @throws IllegalStateException when no member is confirmed the leader within 30 s
     */
    public int leader() throws Exception {
        int[] found = {-1};
        OwnProcesses.await(Duration.ofSeconds(30), "a leader in the etcd cluster in " + dir, () -> {
            found[0] = currentLeader();
            return found[0] >= 0;
        });
        return found[0];
    }

    /** Waits until some member answers as the leader. */
    public void awaitLeader(Duration deadline) throws Exception {
        try {
            OwnProcesses.await(deadline, "a leader in the etcd cluster in " + dir, () -> currentLeader() >= 0);
        } catch (IllegalStateException e) {
            throw new IllegalStateException(e.getMessage() + "; the members' logs end:" + logTails(), e);
        }
    }

    /** @return the member that reports itself the leader now, or -1 */
    private int currentLeader() {
        for (int i = 0; i < processes.length; i++) {
            if (processes[i] == null || !processes[i].isAlive()) {
                continue;
            }
            String status = status(i);
            if (status == null) {
                continue;
            }
            Matcher leader = LEADER.matcher(status);
            Matcher self = MEMBER_ID.matcher(status);
            if (leader.find() && self.find() && leader.group(1).equals(self.group(1)) && !"0".equals(leader.group(1))) {
                return i;
            }
        }
        return -1;
    }

    /** @return the JSON of {@code /v3/maintenance/status} of {@code member}, or null when it does not answer in 1 s */
    private String status(int member) {
        try {
            HttpRequest request = HttpRequest.newBuilder(URI.create(clientUrl(member) + "/v3/maintenance/status"))
                    .timeout(Duration.ofSeconds(1))
                    .POST(HttpRequest.BodyPublishers.ofString("{}"))
                    .build();
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200 ? response.body() : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** @return whether {@code member}'s process runs (it may be paused) */
    public boolean running(int member) {
        return processes[member] != null && processes[member].isAlive();
    }

    /** Kills {@code member} with SIGKILL and waits until it is gone; its data directory stays. */
    public void kill(int member) throws InterruptedException {
        Process process = processes[member];
        if (process != null) {
            resumeQuietly(process);
            OwnProcesses.kill(process, "etcd " + name(member));
        }
        processes[member] = null;
    }

    /**
     * Starts {@code member} again on its ports and data directory ({@code --initial-cluster-state existing}) and waits
     * until it answers the status API; it may still be catching up with the leader.
     */
    public void restart(int member) throws Exception {
        if (running(member)) {
            return;
        }
        launch(member, "existing");
        try {
            OwnProcesses.await(START_DEADLINE, "etcd " + name(member) + " to answer on " + clientUrl(member), () -> {
                if (!running(member)) {
                    throw new IllegalStateException("etcd " + name(member) + " exited");
                }
                return status(member) != null;
            });
        } catch (IllegalStateException e) {
            throw new IllegalStateException(
                    e.getMessage() + "; its log ends:\n" + OwnProcesses.logTail(log(member)), e);
        }
    }

    /** Freezes {@code member} (SIGSTOP of its process only): it holds its connections but answers nothing. */
    public void pause(int member) throws Exception {
        OwnProcesses.signal(processes[member], "STOP");
    }

    /** Lets a paused {@code member} go on (SIGCONT). */
    public void resume(int member) throws Exception {
        OwnProcesses.signal(processes[member], "CONT");
    }

    private static void resumeQuietly(Process process) {
        try {
            OwnProcesses.signal(process, "CONT");
        } catch (Exception e) {
            // it is killed next anyway
        }
    }

    private String logTails() {
        StringBuilder tails = new StringBuilder();
        for (int i = 0; i < processes.length; i++) {
            tails.append("\n--- ").append(name(i)).append(":\n").append(OwnProcesses.logTail(log(i)));
        }
        return tails.toString();
    }

    /** Kills every member this cluster started and deletes the data directories. */
    @Override
    public void close() {
        try {
            for (int i = 0; i < processes.length; i++) {
                kill(i);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            OwnProcesses.deleteTempDir(dir);
        }
    }

    @Override
    public String toString() {
        return "OwnEtcdCluster[" + endpoints() + "]";
    }
}
