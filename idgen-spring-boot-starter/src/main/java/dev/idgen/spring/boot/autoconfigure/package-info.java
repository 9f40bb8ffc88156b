/**
 * Spring Boot auto-configuration for idgen: {@link IdgenAutoConfiguration} builds the {@code IdService} from
 * {@link IdgenProperties}; {@link IdgenGenerators} binds the default generator and each {@code idgen.generators.<name>},
 * and is the one place that reads which strategy each uses. Each strategy lives in a package of its own
 * ({@code snowflake}, {@code segment}, {@code ticket}, {@code redis}); what they share lives beside them.
 */
package dev.idgen.spring.boot.autoconfigure;

import dev.idgen.spring.boot.autoconfigure.core.IdgenGenerators;
import dev.idgen.spring.boot.autoconfigure.core.IdgenProperties;
