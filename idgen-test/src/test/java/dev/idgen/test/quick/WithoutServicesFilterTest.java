package dev.idgen.test.quick;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.test.services.TestServices;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.AbstractTestDescriptor;
import org.junit.platform.engine.support.descriptor.ClassSource;

/**
 * Which classes the fast inner loop ({@code -Pquick}) leaves out: those that call into the test services, directly or
 * through a helper, and those marked {@link NeedsServices}; not those that only describe a database with an endpoint
 * record (the H2 contract tests).
 */
class WithoutServicesFilterTest {

    @AfterEach
    void clearProperty() {
        System.clearProperty(WithoutServicesFilter.PROPERTY);
    }

    @Test
    void leavesOutWhatCallsIntoTheServicesAndKeepsTheRest() {
        System.setProperty(WithoutServicesFilter.PROPERTY, "true");
        WithoutServicesFilter filter = new WithoutServicesFilter();
        assertThat(filter.apply(descriptor(UsesRedis.class)).excluded()).isTrue();
        assertThat(filter.apply(descriptor(UsesAHelper.class)).excluded()).isTrue();
        assertThat(filter.apply(descriptor(Marked.class)).excluded()).isTrue();
        assertThat(filter.apply(descriptor(DescribesH2.class)).included()).isTrue();
        assertThat(filter.apply(descriptor(Plain.class)).included()).isTrue();
    }

    @Test
    void leavesOutTheServicesOwnTests() {
        System.setProperty(WithoutServicesFilter.PROPERTY, "true");
        WithoutServicesFilter filter = new WithoutServicesFilter();
        // They start the servers they test, though the package is otherwise judged only by what calls into it.
        assertThat(filter.apply(descriptor("dev.idgen.test.services.OwnMariaDbReplicaSetTest"))
                        .excluded())
                .isTrue();
    }

    @Test
    void passesEverythingWithoutTheProperty() {
        WithoutServicesFilter filter = new WithoutServicesFilter();
        assertThat(filter.apply(descriptor(UsesRedis.class)).included()).isTrue();
    }

    private static TestDescriptor descriptor(Class<?> testClass) {
        return descriptor(testClass.getName());
    }

    private static TestDescriptor descriptor(String testClass) {
        return new AbstractTestDescriptor(UniqueId.root("class", testClass), testClass, ClassSource.from(testClass)) {
            @Override
            public Type getType() {
                return Type.CONTAINER;
            }
        };
    }
}

// Top-level, not nested: a nested class names its outer class, and through it every sibling.

/** Calls a service directly. */
final class UsesRedis {
    Object redis() {
        return TestServices.redis();
    }
}

/** Calls a service through a helper of its own. */
final class UsesAHelper {
    Object database() {
        return Helper.mariadb();
    }
}

final class Helper {
    static Object mariadb() {
        return TestServices.mariadb();
    }
}

/** Only describes an in-memory database with the endpoint record, as the H2 contract tests do. */
final class DescribesH2 {
    TestServices.JdbcEndpoint endpoint() {
        return new TestServices.JdbcEndpoint("jdbc:h2:mem:quick", "sa", "");
    }
}

@NeedsServices("a database found from variables of its own")
final class Marked {}

final class Plain {
    int answer() {
        return 42;
    }
}
