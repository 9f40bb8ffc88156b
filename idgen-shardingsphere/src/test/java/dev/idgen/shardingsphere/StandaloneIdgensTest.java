package dev.idgen.shardingsphere;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.core.IdService;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/**
 * The standalone idgens' life without the JVM's exit: a set of its own, closed as the shutdown hook closes the JVM's,
 * builds no new idgen (and leases nothing) afterwards. Segment blocks from an in-memory H2, no server needed.
 */
class StandaloneIdgensTest {

    @Test
    void oneIdgenPerSettingsAndNoneAfterClose() {
        StandaloneIdgens idgens = new StandaloneIdgens();
        StandaloneSettings settings = settings("jdbc:h2:mem:idgen_ss_standalone;DB_CLOSE_DELAY=-1");
        IdService ids = idgens.idgen(settings);
        assertThat(idgens.idgen(settings)).isSameAs(ids);
        assertThat(ids.nextIds("t_event", 2)).containsExactly(1L, 2L);
        assertThat(idgens.size()).isEqualTo(1);

        idgens.closeAll();

        assertThat(idgens.size()).isZero();
        assertThatThrownBy(() -> idgens.idgen(settings))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("is closed: the JVM is shutting down")
                .hasMessageContaining("jdbc:h2:mem:idgen_ss_standalone");
        assertThatThrownBy(() -> idgens.idgen(settings("jdbc:h2:mem:idgen_ss_other;DB_CLOSE_DELAY=-1")))
                .isInstanceOf(IllegalStateException.class);
        assertThat(idgens.size()).isZero();
    }

    private static StandaloneSettings settings(String url) {
        Properties props = new Properties();
        props.setProperty("strategy", "segment");
        props.setProperty("jdbc-url", url);
        props.setProperty("segment-step", "10");
        return StandaloneSettings.of(new AlgorithmProps(IdgenKeyGenerateAlgorithm.TYPE, props));
    }
}
