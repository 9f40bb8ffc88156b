package dev.idgen.spring.boot.autoconfigure.entity;

import dev.idgen.core.IdService;
import dev.idgen.core.form.IdForms;
import dev.idgen.spring.IdgenEntityIds;
import dev.idgen.spring.IdgenId;
import dev.idgen.spring.IdgenIdInterceptor;
import dev.idgen.spring.boot.autoconfigure.IdgenAutoConfiguration;
import org.apache.ibatis.plugin.Interceptor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Entity IDs with MyBatis: an {@link IdgenIdInterceptor} bean fills in the unset {@link IdgenId} members of an
 * insert statement's parameter. MyBatis's Spring Boot starter adds every {@link Interceptor} bean to its
 * {@code SqlSessionFactory}; one built by hand needs it passed to {@code SqlSessionFactoryBean.setPlugins}.
 */
@AutoConfiguration(after = IdgenAutoConfiguration.class)
@ConditionalOnClass(Interceptor.class)
@ConditionalOnBean({IdService.class, IdForms.class})
public final class IdgenMyBatisAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    IdgenIdInterceptor idgenIdInterceptor(IdService ids, IdForms forms) {
        return new IdgenIdInterceptor(new IdgenEntityIds(ids, forms));
    }
}
