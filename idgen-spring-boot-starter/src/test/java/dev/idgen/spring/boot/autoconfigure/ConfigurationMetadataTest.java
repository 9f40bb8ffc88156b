package dev.idgen.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The generated configuration metadata that IDEs read: every idgen property has a description and a default.
 */
class ConfigurationMetadataTest {

    private static String metadata() throws Exception {
        try (InputStream in =
                ConfigurationMetadataTest.class.getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            assertThat(in).as("generated metadata on the classpath").isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static String entry(String metadata, String name) {
        Matcher matcher = Pattern.compile("\\{[^{}]*\"name\": \"" + Pattern.quote(name) + "\"[^{}]*\\}")
                .matcher(metadata);
        assertThat(matcher.find()).as("metadata for %s", name).isTrue();
        return matcher.group();
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "idgen.enabled | true",
                "idgen.strategy | \"snowflake\"",
                "idgen.snowflake.preset | \"standard\"",
                "idgen.snowflake.epoch | \"2025-01-01T00:00:00Z\"",
                "idgen.snowflake.time-unit | \"milliseconds\"",
                "idgen.snowflake.timestamp-bits | 41",
                "idgen.snowflake.worker-bits | 10",
                "idgen.snowflake.sequence-bits | 12",
                "idgen.snowflake.worker-id | 0",
                "idgen.snowflake.max-borrow | 0",
                "idgen.snowflake.clock-backwards-tolerance | \"5ms\"",
                "idgen.snowflake.worker-id-assigner | \"static\"",
                "idgen.snowflake.lease.ttl | \"30s\"",
                "idgen.snowflake.lease.reuse-delay | \"5s\"",
                "idgen.segment.store | \"jdbc\"",
                "idgen.jdbc.worker-table | \"idgen_worker\"",
                "idgen.redis.prefix | \"idgen:\"",
                "idgen.redis.timeout | \"500ms\"",
                "idgen.redis.window-size | 100000",
                "idgen.redis.verify-persistence | true",
                "idgen.redis.buckets.count | 256",
                "idgen.redis.buckets.max-sequence | 99999",
                "idgen.redis.buckets.zone | \"UTC\"",
                "idgen.redis.buckets.open-duration | \"5s\"",
                "idgen.json.ids-as-strings | true",
                "idgen.max-names | 1000",
                "idgen.jdbc.failover-jump | 100000000000",
                "idgen.ticket.failover-jump | 1000000",
                "idgen.period-zone | \"UTC\"",
                "idgen.shard.logical-shards | 1024",
            })
    void describesEveryPropertyWithItsDefault(String name, String defaultValue) throws Exception {
        String entry = entry(metadata(), name);
        assertThat(entry)
                .containsPattern("\"description\": \"[^\"]{20,}\"")
                .contains("\"defaultValue\": " + defaultValue);
    }

    @ParameterizedTest
    @CsvSource({"idgen.segment.store, dual", "idgen.snowflake.worker-id-assigner, redis", "idgen.strategy, redis"})
    void hintsTheChoices(String name, String value) throws Exception {
        assertThat(metadata())
                .containsPattern("\"name\": \"" + java.util.regex.Pattern.quote(name)
                        + "\",\\s*\"values\": \\[[^\\]]*\"value\": \"" + value + "\"");
    }

    @ParameterizedTest
    @CsvSource({"idgen.public.keys", "idgen.public.version"})
    void describesThePublicFormsSettings(String name) throws Exception {
        assertThat(entry(metadata(), name)).containsPattern("\"description\": \"[^\"]{20,}\"");
    }

    @Test
    void hintsTheStrategyValues() throws Exception {
        assertThat(metadata())
                .containsPattern("\"name\": \"idgen.strategy\",\\s*\"values\": \\[\\s*\\{\\s*\"value\": \"snowflake\"");
    }
}
