package dev.idgen.redis;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which persistence settings {@link RedisPersistenceRule} accepts, without a Redis. */
class RedisPersistenceRuleTest {

    private static Map<String, String> config(String appendonly, String appendfsync, String save) {
        return Map.of("appendonly", appendonly, "appendfsync", appendfsync, "save", save);
    }

    @Test
    void acceptsNoPersistenceAndAnAppendOnlyFileSyncedOnEveryWrite() {
        Map<String, Map<String, String>> byNode = new LinkedHashMap<>();
        byNode.put("10.0.0.1:6379", config("no", "everysec", ""));
        byNode.put("10.0.0.2:6379", config("no", "everysec", "  "));
        byNode.put("10.0.0.3:6379", config("yes", "always", "3600 1"));
        byNode.put("10.0.0.4:6379", config("YES", "Always", ""));

        assertThatCode(() -> RedisPersistenceRule.requireSafe(byNode, () -> "Redis Cluster"))
                .doesNotThrowAnyException();
    }

    @Test
    void refusesSnapshotsAndAnAppendOnlyFileNotSyncedOnEveryWrite() {
        assertThatThrownBy(() -> RedisPersistenceRule.requireSafe(
                        Map.of("master", config("no", "everysec", "3600 1 300 100")), () -> "Redis at 127.0.0.1:6379"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("Redis at 127.0.0.1:6379 could come back after a restart")
                .hasMessageContaining("(appendonly=no, appendfsync=everysec, save='3600 1 300 100')");
        assertThatThrownBy(() -> RedisPersistenceRule.requireSafe(
                        Map.of("master", config("yes", "everysec", "")), () -> "Redis at 127.0.0.1:6379"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("(appendonly=yes, appendfsync=everysec, save='')");
    }

    @Test
    void namesTheUnsafeMasterWhenThereAreSeveral() {
        Map<String, Map<String, String>> byNode = new LinkedHashMap<>();
        byNode.put("10.0.0.1:6379", config("no", "everysec", ""));
        byNode.put("10.0.0.2:6379", config("no", "everysec", "900 1"));

        assertThatThrownBy(() -> RedisPersistenceRule.requireSafe(byNode, () -> "Redis Cluster (seed nodes x)"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("Redis Cluster (seed nodes x), master 10.0.0.2:6379, could come back");
    }
}
