package dev.idgen.spring.boot.autoconfigure;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import dev.idgen.spring.boot.autoconfigure.core.ConsensusEngine;
import dev.idgen.spring.boot.autoconfigure.core.GeneratorProperties;
import dev.idgen.spring.boot.autoconfigure.core.IdgenGeneratorFactory;
import dev.idgen.spring.boot.autoconfigure.core.IdgenProperties;
import dev.idgen.spring.boot.autoconfigure.core.IdgenStrategy;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.annotation.Configuration;

/**
 * The starter's properties classes hold data: the classes that bind {@code idgen.*} (and their nested enums, such
 * as {@link IdgenProperties.Strategy}) name no strategy's wiring. What each strategy is, is looked up in
 * {@link IdgenStrategies}, which only the wiring uses. Read from the compiled classes (ArchUnit), so a dependency
 * cannot hide in a field type, a constructor call or an annotation.
 */
class PropertiesHoldDataTest {

    private static JavaClasses starter;

    @BeforeAll
    static void importStarter() {
        starter = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.idgen.spring.boot.autoconfigure");
    }

    @Test
    void propertiesClassesNameNoStrategyWiring() {
        ArchRule rule = noClasses()
                .that()
                .haveSimpleNameEndingWith("Properties")
                .or()
                .belongToAnyOf(IdgenProperties.class, GeneratorProperties.class)
                .should()
                .dependOnClassesThat()
                .implement(IdgenStrategy.class)
                .orShould()
                .dependOnClassesThat()
                .implement(IdgenGeneratorFactory.class)
                .orShould()
                .dependOnClassesThat()
                .areAnnotatedWith(Configuration.class)
                .orShould()
                .dependOnClassesThat()
                .implement(ConsensusEngine.class)
                .orShould()
                .dependOnClassesThat()
                .belongToAnyOf(IdgenStrategies.class, IdgenStores.class)
                .because("properties hold data; IdgenStrategies maps each strategy to its wiring");
        rule.check(starter);
    }
}
