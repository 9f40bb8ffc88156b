package dev.idgen.etcd;

import dev.idgen.core.InvalidArgumentException;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.cluster.Member;
import io.etcd.jetcd.cluster.MemberListResponse;
import io.etcd.jetcd.maintenance.StatusResponse;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The state of an etcd cluster as a health indicator shows it: its members, which of them answered, who leads, and the
 * Raft term.
 *
 * @param members every member the cluster lists (or, when the member list could not be read, one per endpoint)
 * @param leaderId the leader's member id in hex, or null when no member that answered knows a leader
 * @param leaderName the leader's name, or null when unknown
 * @param raftTerm the highest Raft term a member reported
 */
public record EtcdClusterStatus(List<MemberStatus> members, String leaderId, String leaderName, long raftTerm) {

    /**
     * One member.
     *
     * @param name its name, or null when the member list could not be read
     * @param id its member id in hex, or null when unknown
     * @param clientUrls where clients reach it
     * @param reachable whether it answered a status request within the timeout
     * @param leader whether it is the leader
     */
    public record MemberStatus(String name, String id, List<String> clientUrls, boolean reachable, boolean leader) {

        /**
         * @return the member as a map for a health indicator's details
         */
        public Map<String, Object> toMap() {
            Map<String, Object> map = new LinkedHashMap<>();
            map.put("name", name);
            map.put("id", id);
            map.put("clientUrls", clientUrls);
            map.put("reachable", reachable);
            map.put("leader", leader);
            return map;
        }
    }

    public EtcdClusterStatus {
        members = List.copyOf(members);
    }

    /**
     * Lists the members through {@code client} and asks each of {@code endpoints} for its status, all at once, waiting
     * at most {@code timeout} in all. A member that does not answer in time is marked unreachable.
     *
     * <p>jetcd asks each endpoint on a channel of its own; with the client's default {@code waitForReady} a request
     * to a member that is down stays queued on that channel until the member answers, after this method has given up
     * on it. A client built with {@code waitForReady(false)} fails such requests at once.
     *
     * @param client the etcd client
     * @param endpoints the members' client URLs to ask, e.g. {@code http://10.0.0.1:2379}
     * @param timeout the longest this may take, positive
     * @return the status
     * @throws EtcdUnavailableException when no member answered at all
     */
    public static EtcdClusterStatus read(Client client, List<String> endpoints, Duration timeout) {
        EtcdCalls.checkTimeout(timeout);
        if (client == null || endpoints == null || endpoints.isEmpty()) {
            throw new InvalidArgumentException("endpoints", endpoints, "a client and at least one endpoint are needed");
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        CompletableFuture<MemberListResponse> list = client.getClusterClient().listMember();
        List<CompletableFuture<StatusResponse>> statuses = new ArrayList<>();
        for (String endpoint : endpoints) {
            CompletableFuture<StatusResponse> status;
            try {
                status = client.getMaintenanceClient().statusMember(endpoint);
            } catch (RuntimeException e) {
                status = CompletableFuture.failedFuture(e);
            }
            statuses.add(status);
        }
        MemberListResponse memberList = awaitQuietly(list, deadline);
        Map<Long, StatusResponse> byMember = new LinkedHashMap<>();
        List<StatusResponse> byEndpoint = new ArrayList<>();
        long leader = 0;
        long term = 0;
        for (CompletableFuture<StatusResponse> future : statuses) {
            StatusResponse status = awaitQuietly(future, deadline);
            byEndpoint.add(status);
            if (status != null) {
                byMember.put(status.getHeader().getMemberId(), status);
                if (status.getRaftTerm() >= term && status.getLeader() != 0) {
                    term = status.getRaftTerm();
                    leader = status.getLeader();
                }
                term = Math.max(term, status.getRaftTerm());
            }
        }
        if (memberList == null && byMember.isEmpty()) {
            throw new EtcdUnavailableException("No etcd member of " + String.join(",", endpoints) + " answered within "
                    + timeout.toMillis() + " ms");
        }
        List<MemberStatus> members = new ArrayList<>();
        String leaderName = null;
        if (memberList != null) {
            for (Member member : memberList.getMembers()) {
                List<String> urls = new ArrayList<>();
                for (URI uri : member.getClientURIs()) {
                    urls.add(uri.toString());
                }
                boolean isLeader = leader != 0 && member.getId() == leader;
                if (isLeader) {
                    leaderName = member.getName();
                }
                members.add(new MemberStatus(
                        member.getName(),
                        Long.toHexString(member.getId()),
                        urls,
                        byMember.containsKey(member.getId()),
                        isLeader));
            }
        } else {
            for (int i = 0; i < endpoints.size(); i++) {
                StatusResponse status = byEndpoint.get(i);
                long id = status == null ? 0 : status.getHeader().getMemberId();
                members.add(new MemberStatus(
                        null,
                        status == null ? null : Long.toHexString(id),
                        List.of(endpoints.get(i)),
                        status != null,
                        status != null && id == leader && leader != 0));
            }
        }
        return new EtcdClusterStatus(members, leader == 0 ? null : Long.toHexString(leader), leaderName, term);
    }

    private static <T> T awaitQuietly(CompletableFuture<T> future, long deadline) {
        try {
            return future.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            future.cancel(true);
            Thread.currentThread().interrupt();
            return null;
        } catch (Exception e) {
            future.cancel(true);
            return null;
        }
    }

    /**
     * @return how many members answered
     */
    public long reachable() {
        return members.stream().filter(MemberStatus::reachable).count();
    }

    /**
     * @return whether more than half of the members answered and a leader is known
     */
    public boolean hasQuorum() {
        return leaderId != null && reachable() * 2 > members.size();
    }

    /**
     * @return the status as a map for a health indicator's details: {@code leader}, {@code leaderId}, {@code raftTerm},
     *         {@code reachable} (e.g. {@code 2/3}) and {@code members}
     */
    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("leader", leaderName);
        map.put("leaderId", leaderId);
        map.put("raftTerm", raftTerm);
        map.put("reachable", reachable() + "/" + members.size());
        List<Map<String, Object>> list = new ArrayList<>();
        for (MemberStatus member : members) {
            list.add(member.toMap());
        }
        map.put("members", list);
        return map;
    }
}
