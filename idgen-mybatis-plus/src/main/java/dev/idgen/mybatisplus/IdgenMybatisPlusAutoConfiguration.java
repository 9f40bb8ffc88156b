package dev.idgen.mybatisplus;

import com.baomidou.mybatisplus.core.incrementer.IdentifierGenerator;
import com.baomidou.mybatisplus.core.metadata.TableInfoHelper;
import dev.idgen.core.IdArguments;
import dev.idgen.core.IdService;
import dev.idgen.spring.boot.autoconfigure.IdgenAutoConfiguration;
import dev.idgen.spring.boot.autoconfigure.diagnostics.IdgenPropertyValueException;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * MyBatis-Plus's {@code ASSIGN_ID} and {@code ASSIGN_UUID} from idgen: an {@link IdgenIdentifierGenerator} bean, which
 * MyBatis-Plus's auto-configuration puts into its {@code GlobalConfig} (and its static {@code IdWorker}). Ordered
 * before MyBatis-Plus's own configurations, so that theirs, conditional on a missing bean as well, back off; a
 * user's own {@link IdentifierGenerator} bean wins over this one.
 */
@AutoConfiguration(
        after = IdgenAutoConfiguration.class,
        beforeName = {
            "com.baomidou.mybatisplus.autoconfigure.MybatisPlusAutoConfiguration",
            "com.baomidou.mybatisplus.autoconfigure.IdentifierGeneratorAutoConfiguration"
        })
@ConditionalOnClass({IdentifierGenerator.class, TableInfoHelper.class})
@ConditionalOnBean(IdService.class)
@EnableConfigurationProperties(IdgenMybatisPlusProperties.class)
public final class IdgenMybatisPlusAutoConfiguration {

    static final String PREFIX = "idgen.mybatis-plus";

    @Bean
    @ConditionalOnMissingBean(IdentifierGenerator.class)
    IdgenIdentifierGenerator idgenIdentifierGenerator(IdService ids, IdgenMybatisPlusProperties properties) {
        Map<String, String> byTable = new TreeMap<>();
        properties.getGenerators().forEach((table, generator) -> {
            String property = PREFIX + ".generators." + table;
            checkName(property, generator);
            String previous = byTable.put(table.toLowerCase(Locale.ROOT), generator);
            if (previous != null && !previous.equals(generator)) {
                throw new IdgenPropertyValueException(
                        property,
                        generator,
                        "another key of " + PREFIX + ".generators names the same table (ignoring case) with generator "
                                + previous,
                        "Keep one key per table.");
            }
        });
        checkName(PREFIX + ".default-generator", properties.getDefaultGenerator());
        return new IdgenIdentifierGenerator(ids, byTable, properties.getDefaultGenerator());
    }

    private static void checkName(String property, String generator) {
        if (!IdArguments.isName(generator)) {
            throw new IdgenPropertyValueException(
                    property,
                    generator,
                    "a generator name is " + IdArguments.NAME_RULE,
                    "Set " + property + " to a generator name, as in idgen.generators.<name>.");
        }
    }
}
