package dev.idgen.spring.boot.autoconfigure.aot;

import dev.idgen.spring.IdgenId;
import dev.idgen.spring.boot.autoconfigure.IdgenStores;
import dev.idgen.spring.boot.autoconfigure.IdgenStrategies;
import dev.idgen.spring.boot.autoconfigure.core.IdgenDependency;
import dev.idgen.spring.boot.autoconfigure.core.IdgenSettings;
import dev.idgen.spring.boot.autoconfigure.core.StoreName;
import java.util.ArrayList;
import java.util.List;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeReference;
import org.springframework.boot.context.properties.bind.BindableRuntimeHintsRegistrar;
import org.springframework.util.ClassUtils;

/**
 * What the starter reaches by reflection at run time, which a native image holds only when told to.
 *
 * <ul>
 *   <li>Hibernate creates {@code IdgenIdGenerator} through its public constructor, named by
 *       {@code @IdGeneratorType} on {@link IdgenId}, and reads the annotation's {@code value()} reflectively.
 *   <li>The starter looks its optional dependencies up by class name while the application runs
 *       ({@link IdgenDependency#missingClass}, and Lettuce's {@code RedisClient} for the Redis parts): in a native
 *       image a class is found by name only when registered, so each one present at build time is.
 *   <li>idgen binds each strategy's and store's settings section ({@code XProperties.SECTION}) with Spring's
 *       binder while the application starts: the sections are not reachable from {@code IdgenProperties}, whose
 *       hints Spring makes itself, so their binding hints are registered here.
 * </ul>
 *
 * <p>The failure analyzers and the database initialization detector listed in {@code META-INF/spring.factories} need
 * nothing here: Spring's own {@code SpringFactoriesLoaderRuntimeHints} registers every {@code spring.factories}
 * entry. The Jackson modules are beans, made by code. The DDL the JDBC stores load is registered by idgen-jdbc's own
 * hints.
 */
public final class IdgenRuntimeHints implements RuntimeHintsRegistrar {

    /** Hibernate's generator for {@link IdgenId}; named, as Hibernate is an optional dependency. */
    static final String ID_GENERATOR = "dev.idgen.spring.IdgenIdGenerator";

    static final String HIBERNATE_ID_GENERATOR_TYPE = "org.hibernate.annotations.IdGeneratorType";

    /** The Redis client whose presence the Redis strategy, health and endpoint check by name. */
    static final String LETTUCE = "io.lettuce.core.RedisClient";

    @Override
    public void registerHints(RuntimeHints hints, ClassLoader classLoader) {
        hints.reflection().registerType(IdgenId.class, MemberCategory.INVOKE_PUBLIC_METHODS);
        if (ClassUtils.isPresent(HIBERNATE_ID_GENERATOR_TYPE, classLoader)) {
            hints.reflection().registerType(TypeReference.of(ID_GENERATOR), MemberCategory.INVOKE_PUBLIC_CONSTRUCTORS);
        }
        for (String name : classesLookedUpByName()) {
            hints.reflection().registerTypeIfPresent(classLoader, name);
        }
        BindableRuntimeHintsRegistrar.forTypes(sectionTypes()).registerHints(hints, classLoader);
        // The binder makes a StoreName by its static valueOf(String), found by reflection.
        hints.reflection().registerType(StoreName.class, MemberCategory.INVOKE_PUBLIC_METHODS);
    }

    /** @return the classes of every settings section */
    static Class<?>[] sectionTypes() {
        return IdgenStrategies.sections().stream().map(IdgenSettings::type).toArray(Class<?>[]::new);
    }

    static List<String> classesLookedUpByName() {
        List<String> names = new ArrayList<>();
        for (IdgenDependency dependency : IdgenStores.dependencies()) {
            names.addAll(List.of(dependency.classes()));
        }
        names.add(LETTUCE);
        return List.copyOf(names);
    }
}
