package dev.idgen.spring.boot.autoconfigure;

import dev.idgen.spring.boot.autoconfigure.core.GeneratorProperties;
import dev.idgen.spring.boot.autoconfigure.core.IdgenSettings;
import java.beans.PropertyDescriptor;
import java.util.Set;
import java.util.TreeSet;
import org.springframework.beans.BeanUtils;
import org.springframework.boot.context.properties.bind.DataObjectPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.core.env.Environment;

/**
 * The keys a named generator takes: the settings every generator has ({@link GeneratorProperties}) and the sections of
 * the strategies and stores. A key under {@code idgen.generators.<name>} that is neither fails start-up naming it:
 * every key there makes {@code <name>} a generator of its own, so a misspelt one ({@code stratgy=ticket}) would
 * otherwise make a generator the user did not mean, with everything inherited.
 */
final class IdgenGeneratorKeys {

    private static final ConfigurationPropertyName GENERATORS = ConfigurationPropertyName.of("idgen.generators");

    private IdgenGeneratorKeys() {}

    /**
     * @throws InvalidConfigurationPropertyValueException naming the first key that is no setting of a generator
     */
    static void refuseUnknown(Environment environment) {
        Set<String> known = known();
        Set<String> uniform = new TreeSet<>();
        known.forEach(key -> uniform.add(key.replace("-", "")));
        for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
            if (!(source instanceof IterableConfigurationPropertySource names)) {
                continue;
            }
            for (ConfigurationPropertyName name : names) {
                if (!GENERATORS.isAncestorOf(name) || name.getNumberOfElements() < 4) {
                    continue;
                }
                // Uniform (lower case, no dashes) as the binder compares: periodDigits and period-digits are one.
                if (!uniform.contains(name.getElement(3, ConfigurationPropertyName.Form.UNIFORM))) {
                    ConfigurationProperty property = source.getConfigurationProperty(name);
                    throw new InvalidConfigurationPropertyValueException(
                            name.toString(),
                            property == null ? null : property.getValue(),
                            "is not a setting of a generator: a generator takes " + String.join(", ", known));
                }
            }
        }
    }

    /** @return the first key below {@code idgen.generators.<name>} of every setting a generator takes, dashed */
    static Set<String> known() {
        Set<String> known = new TreeSet<>();
        for (PropertyDescriptor property : BeanUtils.getPropertyDescriptors(GeneratorProperties.class)) {
            if (property.getReadMethod() != null && !property.getName().equals("class")) {
                known.add(DataObjectPropertyName.toDashedForm(property.getName()));
            }
        }
        for (IdgenSettings<?> section : IdgenStrategies.sections()) {
            known.add(section.key());
        }
        return known;
    }
}
