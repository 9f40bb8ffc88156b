package dev.idgen.spring.boot.autoconfigure.segment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.core.segment.SegmentSettings;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The segment defaults are spelled twice: in {@link SegmentSettings} and, as literals the configuration processor can
 * read into the metadata, in {@link SegmentProperties}. This holds the two equal, for every setting the core
 * has: a new one without its property fails here too.
 */
class SegmentDefaultsTest {

    @Test
    void everySegmentPropertyDefaultsToTheCoresDefault() throws Exception {
        SegmentProperties properties = new SegmentProperties();
        List<String> checked = new ArrayList<>();
        for (RecordComponent component : SegmentSettings.class.getRecordComponents()) {
            String name = component.getName();
            Object core = component.getAccessor().invoke(SegmentSettings.DEFAULTS);
            Method getter = SegmentProperties.class.getMethod(
                    "get" + Character.toUpperCase(name.charAt(0)) + name.substring(1));
            Object property = getter.invoke(properties);
            if (name.equals("minStep")) {
                // Unset on both sides, min-step takes step's value: the property has no literal of its own.
                assertThat(property).as("idgen.segment.min-step").isNull();
                assertThat(core).as("SegmentSettings.DEFAULTS.minStep()").isEqualTo(SegmentSettings.DEFAULTS.step());
            } else {
                assertThat(property)
                        .as("the default of idgen.segment's %s", name)
                        .isEqualTo(core);
            }
            checked.add(name);
        }
        assertThat(checked)
                .contains(
                        "step",
                        "maxStep",
                        "bufferDuration",
                        "preloadThreshold",
                        "awaitTimeout",
                        "stripeSize",
                        "firstLoadTimeout");
    }
}
