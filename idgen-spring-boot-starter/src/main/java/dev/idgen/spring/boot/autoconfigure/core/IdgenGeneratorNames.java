package dev.idgen.spring.boot.autoconfigure.core;

import dev.idgen.core.IdArguments;
import dev.idgen.spring.boot.autoconfigure.diagnostics.IdgenPropertyValueException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.Environment;
import org.springframework.core.env.PropertySource;

/**
 * The names of the generators under {@code idgen.generators}, as the user wrote them and as Spring Boot's binder reads
 * them. A generator's name is the sequence name it serves ({@link IdArguments#checkName}: 1 to 64 characters of
 * {@code [A-Za-z0-9._:-]}, the first a letter or digit), but Spring Boot reads a key written without brackets loosely:
 * it drops the characters a property name cannot hold ({@code idgen.generators.a:b.strategy} binds a generator named
 * {@code ab}), takes a dot as a level, and matches {@code Invoice}, {@code invoice} and {@code in_voice} as one key,
 * while a bracketed key is taken exactly ({@code idgen.generators.[Invoice]} does not find
 * {@code idgen.generators.Invoice.strategy}). This class checks the keys before Spring Boot binds them, and gives
 * each generator the key that finds its settings however its name was written.
 */
final class IdgenGeneratorNames {

    /** The characters Spring Boot keeps in a map key written without brackets (it drops the others). */
    private static final String UNBRACKETED = "[A-Za-z0-9_-]";

    private IdgenGeneratorNames() {}

    /**
     * Refuses a key under {@code idgen.generators} that Spring Boot would bind under another name than the one
     * written: a name with characters Spring Boot drops when unbracketed ({@code idgen.generators.a:b.strategy}
     * would make a generator named {@code ab}; {@code idgen.generators.my invoice!.strategy} one named
     * {@code myinvoice}).
     *
     * @throws IdgenPropertyValueException naming {@code idgen.generators.<name as written>}
     */
    static void checkWritten(Environment environment) {
        if (!(environment instanceof ConfigurableEnvironment configurable)) {
            return;
        }
        String start = IdgenGenerators.GENERATORS + ".";
        for (PropertySource<?> source : configurable.getPropertySources()) {
            if (!(source instanceof EnumerablePropertySource<?> enumerable)) {
                continue;
            }
            for (String key : enumerable.getPropertyNames()) {
                if (!key.startsWith(start) || key.length() == start.length() || key.charAt(start.length()) == '[') {
                    continue;
                }
                int end = key.indexOf('.', start.length());
                String written = key.substring(start.length(), end < 0 ? key.length() : end);
                if (!written.matches(UNBRACKETED + "+")) {
                    throw unboundAsWritten(key, written, source.getName());
                }
            }
        }
    }

    /**
     * Checks a generator's name as the map of generators holds it (brackets removed) against the sequence name rule.
     *
     * @throws IdgenPropertyValueException naming {@code idgen.generators.<name>}, the rule and what to write
     */
    static void check(String name) {
        try {
            IdArguments.checkName(name);
        } catch (IllegalArgumentException e) {
            throw new IdgenPropertyValueException(
                    IdgenGenerators.GENERATORS + "." + name,
                    name,
                    "a generator's name" + " is the sequence name it serves: " + e.getMessage(),
                    RENAME);
        }
    }

    private static final String RENAME = "Name the generator as IdService.nextId(name) is called: 1 to "
            + IdArguments.MAX_NAME_LENGTH + " characters of letters, digits, '.', '_', ':' and '-', the first a letter"
            + " or digit (write a name with '.' or ':' in brackets, for example idgen.generators.[order.v2].strategy)";

    private static IdgenPropertyValueException unboundAsWritten(String key, String written, String source) {
        String asBound = written.replaceAll("[^A-Za-z0-9_-]", "");
        String property = IdgenGenerators.GENERATORS + "." + written;
        String where = " (" + key + " in '" + source + "')";
        try {
            IdArguments.checkName(written);
        } catch (IllegalArgumentException e) {
            return new IdgenPropertyValueException(
                    property,
                    written,
                    "a generator's name is the sequence name it"
                            + " serves: " + e.getMessage() + where + "; unchecked, Spring Boot would have bound it as a"
                            + " generator named '" + asBound + "'",
                    RENAME);
        }
        return new IdgenPropertyValueException(
                property,
                written,
                "Spring Boot drops the characters other than"
                        + " letters, digits, '_' and '-' from a key written without brackets, and would bind it as a generator"
                        + " named '" + asBound + "'" + where,
                "Write the name in brackets: " + IdgenGenerators.GENERATORS
                        + ".[" + written + "]" + key.substring(property.length()) + " (in YAML, the key \"["
                        + written + "]\")");
    }

    /**
     * Refuses two generators whose names Spring Boot's relaxed binding reads as one key ({@code Invoice} and
     * {@code invoice}, {@code invoice-eu} and {@code invoice_eu}): each would also read the other's settings.
     *
     * @throws IdgenPropertyValueException naming both
     */
    static void checkDistinct(Iterable<String> names) {
        Map<String, String> seen = new LinkedHashMap<>();
        for (String name : names) {
            String other = seen.putIfAbsent(relaxed(name), name);
            if (other != null) {
                throw new IdgenPropertyValueException(
                        IdgenGenerators.GENERATORS + "." + name,
                        name,
                        "Spring Boot's"
                                + " relaxed binding reads idgen.generators." + other + " and idgen.generators." + name
                                + " as one key: generator names must differ in more than case, '-' and '_'",
                        "Write one"
                                + " generator's settings under a single spelling of its name, or give the two"
                                + " generators names that differ in more than case, '-' and '_'");
            }
        }
    }

    private static String relaxed(String name) {
        return name.toLowerCase(Locale.ROOT).replace("-", "").replace("_", "");
    }

    /**
     * The key under which the binder finds a generator's settings: {@code idgen.generators.[<name>]} when they were
     * written in brackets (or the name holds a dot or a colon, which only brackets keep), otherwise the name in
     * Spring Boot's canonical form, lowercase letters and digits ({@code idgen.generators.invoiceeu} finds
     * {@code idgen.generators.invoice_eu.strategy} and {@code idgen.generators.Invoice-EU.strategy}), which a
     * bracketed key would not match.
     *
     * @param name a checked generator name, as the map of generators holds it
     */
    static String key(Binder binder, String name) {
        String bracketed = IdgenGenerators.GENERATORS + ".[" + name + "]";
        if (name.indexOf('.') >= 0 || name.indexOf(':') >= 0 || isSet(binder, bracketed)) {
            return bracketed;
        }
        String canonical = name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "");
        return IdgenGenerators.GENERATORS + "." + canonical;
    }

    private static boolean isSet(Binder binder, String name) {
        return binder.bind(name, Bindable.mapOf(String.class, Object.class)).isBound();
    }
}
