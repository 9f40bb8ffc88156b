package dev.idgen.shardingsphere.autoconfigure;

import dev.idgen.core.IdService;
import dev.idgen.shardingsphere.IdgenRegistry;
import dev.idgen.spring.boot.autoconfigure.IdgenAutoConfiguration;
import org.apache.shardingsphere.infra.algorithm.keygen.core.KeyGenerateAlgorithm;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * ShardingSphere builds its key generators itself, through its SPI, so the {@code IDGEN} algorithm cannot be handed
 * the context's {@link IdService}: this registers it in {@link IdgenRegistry} under
 * {@value IdgenRegistry#REGISTRATION_PROPERTY} (default {@value IdgenRegistry#DEFAULT_REGISTRATION}) for as long as
 * the context runs. The algorithm looks it up when it first generates keys, so the ShardingSphere DataSource may be
 * built before this. {@code idgen.shardingsphere.enabled=false} leaves a context unregistered (one that never inserts
 * through ShardingSphere, beside others that do under the same name).
 */
@AutoConfiguration(after = IdgenAutoConfiguration.class)
@ConditionalOnClass(KeyGenerateAlgorithm.class)
@ConditionalOnBean(IdService.class)
public final class IdgenShardingSphereAutoConfiguration {

    @Bean
    @ConditionalOnProperty(
            prefix = "idgen.shardingsphere",
            name = "enabled",
            havingValue = "true",
            matchIfMissing = true)
    IdgenShardingSphereRegistration idgenShardingSphereRegistration(IdService ids, Environment environment) {
        String name = environment.getProperty(IdgenRegistry.REGISTRATION_PROPERTY, IdgenRegistry.DEFAULT_REGISTRATION);
        if (name.isBlank()) {
            throw new InvalidConfigurationPropertyValueException(
                    IdgenRegistry.REGISTRATION_PROPERTY,
                    name,
                    "must name the registration the IDGEN key generators' props.registration use (default '"
                            + IdgenRegistry.DEFAULT_REGISTRATION + "')");
        }
        return new IdgenShardingSphereRegistration(name.trim(), ids);
    }
}
