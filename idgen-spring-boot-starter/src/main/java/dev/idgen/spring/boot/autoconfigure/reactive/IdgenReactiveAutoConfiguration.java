package dev.idgen.spring.boot.autoconfigure.reactive;

import dev.idgen.core.IdService;
import dev.idgen.core.ReadableIdService;
import dev.idgen.spring.boot.autoconfigure.IdgenAutoConfiguration;
import dev.idgen.spring.reactive.BoundedBlockingExecutor;
import dev.idgen.spring.reactive.DefaultReactiveIdService;
import dev.idgen.spring.reactive.DefaultReactiveReadableIdService;
import dev.idgen.spring.reactive.ReactiveIdService;
import dev.idgen.spring.reactive.ReactiveReadableIdService;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import reactor.core.publisher.Mono;

/**
 * The reactive face of idgen when Reactor is on the class path: a {@link ReactiveIdService} over the
 * {@link IdService} (every strategy and named generator), a {@link ReactiveReadableIdService} when readable IDs are
 * on, and the bounded executor ({@code idgen.reactive.*}) for the calls that must block.
 */
@AutoConfiguration(after = IdgenAutoConfiguration.class)
@ConditionalOnClass(Mono.class)
@ConditionalOnBean(IdService.class)
@EnableConfigurationProperties(IdgenReactiveProperties.class)
public final class IdgenReactiveAutoConfiguration {

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    BoundedBlockingExecutor idgenBlockingExecutor(IdgenReactiveProperties properties) {
        return new BoundedBlockingExecutor(properties.blockingThreadsOrDefault(), properties.getBlockingQueue());
    }

    @Bean
    @ConditionalOnMissingBean
    ReactiveIdService reactiveIdService(IdService ids, BoundedBlockingExecutor idgenBlockingExecutor) {
        return new DefaultReactiveIdService(ids, idgenBlockingExecutor);
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean(ReadableIdService.class)
    ReactiveReadableIdService reactiveReadableIdService(
            ReadableIdService readableIds, BoundedBlockingExecutor idgenBlockingExecutor) {
        return new DefaultReactiveReadableIdService(readableIds, idgenBlockingExecutor);
    }
}
