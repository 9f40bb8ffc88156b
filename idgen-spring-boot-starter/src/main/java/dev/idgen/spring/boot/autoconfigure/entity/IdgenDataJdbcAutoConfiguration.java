package dev.idgen.spring.boot.autoconfigure.entity;

import dev.idgen.core.IdService;
import dev.idgen.core.form.IdForms;
import dev.idgen.spring.IdgenEntityIds;
import dev.idgen.spring.IdgenId;
import dev.idgen.spring.IdgenIdBeforeConvertCallback;
import dev.idgen.spring.boot.autoconfigure.IdgenAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.data.jdbc.autoconfigure.DataJdbcRepositoriesAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.data.relational.core.mapping.RelationalMappingContext;
import org.springframework.data.relational.core.mapping.event.BeforeConvertCallback;

/**
 * Entity IDs with Spring Data JDBC: a {@link IdgenIdBeforeConvertCallback} fills in the unset {@link IdgenId}
 * members of every aggregate before it is saved.
 */
@AutoConfiguration(after = {IdgenAutoConfiguration.class, DataJdbcRepositoriesAutoConfiguration.class})
@ConditionalOnClass({BeforeConvertCallback.class, RelationalMappingContext.class})
@ConditionalOnBean({IdService.class, IdForms.class, RelationalMappingContext.class})
public final class IdgenDataJdbcAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    IdgenIdBeforeConvertCallback idgenIdBeforeConvertCallback(
            IdService ids, IdForms forms, RelationalMappingContext mappingContext) {
        return new IdgenIdBeforeConvertCallback(new IdgenEntityIds(ids, forms), mappingContext);
    }
}
