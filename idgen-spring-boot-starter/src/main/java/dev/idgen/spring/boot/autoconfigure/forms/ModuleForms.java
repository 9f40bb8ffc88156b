package dev.idgen.spring.boot.autoconfigure.forms;

import dev.idgen.core.IdSequence;
import dev.idgen.core.IdService;
import dev.idgen.core.form.IdForm;
import dev.idgen.core.snowflake.SnowflakeIdService;
import dev.idgen.forms.publicid.PublicIdCodec;
import dev.idgen.forms.publicid.PublicIdForm;
import dev.idgen.forms.shard.ShardPosition;
import dev.idgen.forms.shard.ShardedIdService;
import dev.idgen.forms.shard.ShardedSnowflake;
import dev.idgen.spring.boot.autoconfigure.core.Form;
import dev.idgen.spring.boot.autoconfigure.core.FormProperties;
import dev.idgen.spring.boot.autoconfigure.core.IdgenGenerators;
import dev.idgen.spring.boot.autoconfigure.diagnostics.InvalidIdgenProperty;
import java.util.Map;
import java.util.function.BiFunction;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * The forms that need the {@code idgen-forms} module ({@link Form#PUBLIC}, {@link Form#SHARD}): the one class of the
 * starter that names its classes, loaded only when a generator has one of those forms, so that an application
 * without the module (and without Bouncy Castle and zero-allocation-hashing) never loads it.
 */
final class ModuleForms {

    private ModuleForms() {}

    /**
     * @return the public form over any of the generator's sequences, all under one codec (its tweak is the
     *         generator's name)
     */
    static BiFunction<String, IdSequence, IdForm> publicForms(IdgenGenerators.Definition definition) {
        PublicIdCodec codec = publicCodec(definition, definition.name());
        return (name, sequence) -> new PublicIdForm(name, sequence, codec);
    }

    static IdForm publicForm(IdgenGenerators.Definition definition, String name, IdSequence sequence) {
        return new PublicIdForm(name, sequence, publicCodec(definition, definition.name()));
    }

    /** The shard-aware service over the generator's Snowflake service. */
    static IdService sharded(IdgenGenerators.Definition definition, IdService base) {
        FormProperties.Shard shard = definition.properties().getShard();
        IdgenFormFactory.shardBits(shard.getLogicalShards(), definition.property("shard.logical-shards"));
        SnowflakeIdService snowflake = (SnowflakeIdService) base;
        ShardedSnowflake sharded = InvalidIdgenProperty.rethrowAsProperty(
                definition.prefix() + ".shard",
                () -> ShardedSnowflake.builder()
                        .generator(snowflake.generator())
                        .logicalShards(shard.getLogicalShards())
                        .position(
                                shard.getLayout() == FormProperties.ShardLayout.INSTAGRAM
                                        ? ShardPosition.AFTER_TIMESTAMP
                                        : ShardPosition.LOW)
                        .build());
        return new ShardedIdService(snowflake, sharded);
    }

    /** @param shaped the service {@link #sharded} made */
    static IdForm shardForm(String name, IdService shaped) {
        return ((ShardedIdService) shaped).sharded().form(name);
    }

    private static PublicIdCodec publicCodec(IdgenGenerators.Definition definition, String name) {
        FormProperties.Public settings = definition.properties().getPublic();
        String prefix = definition.property("public");
        PublicIdCodec.Builder builder = PublicIdCodec.builder().tweak(name);
        settings.getKeys().forEach((version, key) -> {
            String property = prefix + ".keys." + version;
            byte[] bytes;
            try {
                bytes = PublicIdCodec.parseKey(version, key);
            } catch (IllegalArgumentException e) {
                throw new InvalidConfigurationPropertyValueException(property, "(hidden)", e.getMessage());
            }
            try {
                builder.key(version, bytes);
            } catch (IllegalArgumentException e) {
                throw new InvalidConfigurationPropertyValueException(property, "(hidden)", e.getMessage());
            }
        });
        if (settings.getVersion() != null) {
            int version = settings.getVersion();
            InvalidIdgenProperty.rethrowAsProperty(
                    prefix, Map.of("currentVersion", "version"), () -> builder.currentVersion(version));
        }
        return InvalidIdgenProperty.rethrowAsProperty(prefix, Map.of("currentVersion", "version"), builder::build);
    }
}
