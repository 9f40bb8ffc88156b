package dev.idgen.spring.boot.autoconfigure.entity;

import dev.idgen.core.form.IdForms;
import dev.idgen.spring.IdgenId;
import dev.idgen.spring.IdgenIdR2dbcBeforeConvertCallback;
import dev.idgen.spring.boot.autoconfigure.IdgenAutoConfiguration;
import dev.idgen.spring.boot.autoconfigure.reactive.IdgenReactiveAutoConfiguration;
import dev.idgen.spring.reactive.BoundedBlockingExecutor;
import dev.idgen.spring.reactive.ReactiveIdService;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.data.r2dbc.autoconfigure.DataR2dbcAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.data.r2dbc.mapping.R2dbcMappingContext;
import org.springframework.data.r2dbc.mapping.event.BeforeConvertCallback;

/**
 * Entity IDs with Spring Data R2DBC: a {@link IdgenIdR2dbcBeforeConvertCallback} fills in the unset {@link IdgenId}
 * members of every entity before it is saved, through the {@link ReactiveIdService}, without blocking the event loop.
 */
@AutoConfiguration(
        after = {IdgenAutoConfiguration.class, IdgenReactiveAutoConfiguration.class, DataR2dbcAutoConfiguration.class})
@ConditionalOnClass({BeforeConvertCallback.class, R2dbcMappingContext.class})
@ConditionalOnBean({ReactiveIdService.class, IdForms.class, BoundedBlockingExecutor.class, R2dbcMappingContext.class})
public final class IdgenDataR2dbcAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    IdgenIdR2dbcBeforeConvertCallback idgenIdR2dbcBeforeConvertCallback(
            ReactiveIdService ids,
            IdForms forms,
            BoundedBlockingExecutor idgenBlockingExecutor,
            R2dbcMappingContext mappingContext) {
        return new IdgenIdR2dbcBeforeConvertCallback(ids, forms, idgenBlockingExecutor, mappingContext);
    }
}
