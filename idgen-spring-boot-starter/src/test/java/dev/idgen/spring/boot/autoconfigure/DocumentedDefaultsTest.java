package dev.idgen.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.core.segment.SegmentIdService;
import dev.idgen.core.snowflake.OrdinalWorkerId;
import dev.idgen.core.snowflake.SnowflakeLayout;
import dev.idgen.jdbc.JdbcSegmentStore;
import dev.idgen.jdbc.TicketServer;
import dev.idgen.spring.boot.autoconfigure.core.FormProperties;
import dev.idgen.spring.boot.autoconfigure.core.IdgenProperties;
import dev.idgen.spring.boot.autoconfigure.etcd.EtcdProperties;
import dev.idgen.spring.boot.autoconfigure.jdbc.JdbcProperties;
import dev.idgen.spring.boot.autoconfigure.json.IdgenJsonProperties;
import dev.idgen.spring.boot.autoconfigure.reactive.IdgenReactiveProperties;
import dev.idgen.spring.boot.autoconfigure.redis.RedisProperties;
import dev.idgen.spring.boot.autoconfigure.remote.RemoteProperties;
import dev.idgen.spring.boot.autoconfigure.segment.SegmentProperties;
import dev.idgen.spring.boot.autoconfigure.snowflake.SnowflakeProperties;
import dev.idgen.spring.boot.autoconfigure.ticket.TicketProperties;
import dev.idgen.spring.boot.autoconfigure.web.IdgenWebProperties;
import dev.idgen.spring.boot.autoconfigure.zookeeper.ZooKeeperProperties;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.Test;
import org.springframework.beans.BeanWrapperImpl;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.json.JsonParserFactory;

/**
 * The defaults the configuration metadata documents (and so docs/properties.md, generated from it) are the real ones:
 * the properties bound from an empty environment equal those bound from the documented defaults, and a property the
 * metadata gives no default is really unset (or an empty list or map) until configured. A field initialised from a
 * constant is written out as a literal, which the annotation processor can read; the constants stay the truth.
 */
class DocumentedDefaultsTest {

    /** The parts of the Snowflake layout left unset so that the preset decides: the standard preset's. */
    private static final Map<String, Object> STANDARD_PRESET = Map.of(
            "idgen.snowflake.epoch", SnowflakeLayout.standard().epoch(),
            "idgen.snowflake.time-unit", SnowflakeLayout.standard().tickUnit(),
            "idgen.snowflake.timestamp-bits", SnowflakeLayout.standard().timestampBits(),
            "idgen.snowflake.worker-bits", SnowflakeLayout.standard().workerBits(),
            "idgen.snowflake.sequence-bits", SnowflakeLayout.standard().sequenceBits());

    @Test
    void literalInitialisersEqualTheirConstants() {
        assertThat(new IdgenProperties().getMaxNames()).isEqualTo(SegmentIdService.DEFAULT_MAX_NAMES);
        assertThat(new JdbcProperties().getFailoverJump()).isEqualTo(JdbcSegmentStore.DEFAULT_FAILOVER_JUMP);
        assertThat(new TicketProperties().getFailoverJump()).isEqualTo(TicketServer.DEFAULT_FAILOVER_JUMP);
        assertThat(new SnowflakeProperties().getOrdinal().getPattern()).isEqualTo(OrdinalWorkerId.DEFAULT_PATTERN);
        assertThat(new IdgenProperties().getPeriodZone()).isEqualTo(FormProperties.DEFAULT_PERIOD_ZONE);
    }

    @Test
    void everyDocumentedDefaultIsTheRealOneAndNoRealDefaultIsUndocumented() throws Exception {
        List<Map<String, Object>> properties = idgenProperties();
        assertThat(properties).hasSizeGreaterThan(60);
        Map<String, String> documented = new LinkedHashMap<>();
        for (Map<String, Object> property : properties) {
            if (property.get("defaultValue") != null) {
                documented.put((String) property.get("name"), String.valueOf(property.get("defaultValue")));
            }
        }
        Object[] empty = bind(Map.of());
        Object[] fromDocs = bind(documented);
        List<String> wrong = new ArrayList<>();
        for (Map<String, Object> property : properties) {
            String name = (String) property.get("name");
            Object real = value(empty, name);
            if (!documented.containsKey(name)) {
                if (!(real == null
                        || real instanceof Collection<?> c && c.isEmpty()
                        || real instanceof Map<?, ?> m && m.isEmpty())) {
                    wrong.add(name + ": defaults to " + real + ", which the metadata does not say");
                }
                continue;
            }
            if (real == null) {
                real = STANDARD_PRESET.get(name);
            }
            Object documentedValue = value(fromDocs, name);
            if (!same(documentedValue, real)) {
                wrong.add(name + ": documented " + documented.get(name) + " (" + documentedValue + "), really " + real);
            }
        }
        assertThat(wrong).as("defaults the metadata gets wrong or leaves out").isEmpty();
    }

    /** The generated metadata's properties below {@code idgen.}, but for the map of named generators. */
    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> idgenProperties() throws Exception {
        String json;
        try (InputStream in =
                DocumentedDefaultsTest.class.getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            assertThat(in).as("generated metadata on the classpath").isNotNull();
            json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        List<Map<String, Object>> idgen = new ArrayList<>();
        for (Object property :
                (List<Object>) JsonParserFactory.getJsonParser().parseMap(json).get("properties")) {
            Map<String, Object> p = (Map<String, Object>) property;
            String name = (String) p.get("name");
            if (name.startsWith("idgen.") && !name.equals("idgen.generators")) {
                idgen.add(p);
            }
        }
        return idgen;
    }

    /** The prefixes of the properties classes {@link #bind} binds, in its order. */
    private static final String[] PREFIXES = {
        "idgen.",
        "idgen.json.",
        "idgen.reactive.",
        "idgen.web.",
        "idgen.snowflake.",
        "idgen.segment.",
        "idgen.jdbc.",
        "idgen.ticket.",
        "idgen.redis.",
        "idgen.etcd.",
        "idgen.zookeeper.",
        "idgen.remote."
    };

    /**
     * @return {@code idgen.*}, {@code idgen.json.*}, {@code idgen.reactive.*}, {@code idgen.web.*} and each strategy's
     *     and store's section bound from these values alone
     */
    private static Object[] bind(Map<String, String> values) {
        Binder binder = new Binder(new MapConfigurationPropertySource(values));
        return new Object[] {
            binder.bindOrCreate("idgen", IdgenProperties.class),
            binder.bindOrCreate("idgen.json", IdgenJsonProperties.class),
            binder.bindOrCreate("idgen.reactive", IdgenReactiveProperties.class),
            binder.bindOrCreate("idgen.web", IdgenWebProperties.class),
            binder.bindOrCreate("idgen.snowflake", SnowflakeProperties.class),
            binder.bindOrCreate("idgen.segment", SegmentProperties.class),
            binder.bindOrCreate("idgen.jdbc", JdbcProperties.class),
            binder.bindOrCreate("idgen.ticket", TicketProperties.class),
            binder.bindOrCreate("idgen.redis", RedisProperties.class),
            binder.bindOrCreate("idgen.etcd", EtcdProperties.class),
            binder.bindOrCreate("idgen.zookeeper", ZooKeeperProperties.class),
            binder.bindOrCreate("idgen.remote", RemoteProperties.class)
        };
    }

    /** @return the value of a property such as {@code idgen.snowflake.lease.reuse-delay} */
    private static Object value(Object[] bound, String name) {
        int which = 0;
        for (int i = 1; i < PREFIXES.length; i++) {
            if (name.startsWith(PREFIXES[i])) {
                which = i;
            }
        }
        String path = name.substring(PREFIXES[which].length());
        StringBuilder camel = new StringBuilder();
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c == '-') {
                camel.append(Character.toUpperCase(path.charAt(++i)));
            } else {
                camel.append(c);
            }
        }
        return new BeanWrapperImpl(bound[which]).getPropertyValue(camel.toString());
    }

    private static boolean same(Object documented, Object real) {
        if (documented instanceof ZoneId a && real instanceof ZoneId b) {
            return a.normalized().equals(b.normalized());
        }
        return Objects.equals(documented, real);
    }
}
