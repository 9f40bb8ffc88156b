package dev.idgen.spring.boot.autoconfigure.web;

import dev.idgen.spring.web.IdgenProblemHandler;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * {@link IdgenProblemHandler} in a Spring MVC or a WebFlux application, so that a bad name or count passed to
 * {@code IdService} from a controller is a 400 naming the argument rather than a 500. Independent of the generators:
 * a controller may pass on idgen's exceptions from a service of its own. Off with
 * {@code idgen.web.problem-details.enabled=false}; an {@code IdgenProblemHandler} bean of the application's replaces
 * it.
 */
@AutoConfiguration
@ConditionalOnClass(name = "org.springframework.http.ProblemDetail")
@ConditionalOnBooleanProperty(name = "idgen.web.problem-details.enabled", matchIfMissing = true)
@EnableConfigurationProperties(IdgenWebProperties.class)
public final class IdgenProblemDetailsAutoConfiguration {

    // Class names, not classes: neither stack is a dependency of the starter's.
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
    @ConditionalOnClass(name = "org.springframework.web.servlet.DispatcherServlet")
    static class ServletConfiguration {

        @Bean
        @ConditionalOnMissingBean
        IdgenProblemHandler idgenProblemHandler() {
            return new IdgenProblemHandler();
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
    @ConditionalOnClass(name = "org.springframework.web.reactive.DispatcherHandler")
    static class ReactiveConfiguration {

        @Bean
        @ConditionalOnMissingBean
        IdgenProblemHandler idgenProblemHandler() {
            return new IdgenProblemHandler();
        }
    }
}
