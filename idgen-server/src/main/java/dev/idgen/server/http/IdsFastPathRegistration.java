package dev.idgen.server.http;

import dev.idgen.server.IdgenServerApi;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.web.servlet.HandlerExceptionResolver;
import tools.jackson.databind.json.JsonMapper;

/** {@link IdsFastPath} on {@code /ids/*}, for requests only (an error dispatch goes to MVC). */
@Configuration(proxyBeanMethods = false)
class IdsFastPathRegistration {

    /**
     * After Spring's own filters that every request passes (character encoding, the {@code http.server.requests}
     * observation), so that an ID request is observed as before.
     */
    static final int ORDER = Ordered.HIGHEST_PRECEDENCE + 10;

    @Bean
    FilterRegistrationBean<IdsFastPath> idsFastPath(
            IdgenServerApi api,
            @Qualifier("handlerExceptionResolver") HandlerExceptionResolver refusals,
            JsonMapper mapper) {
        FilterRegistrationBean<IdsFastPath> registration =
                new FilterRegistrationBean<>(new IdsFastPath(api, refusals, mapper));
        registration.addUrlPatterns("/ids/*");
        registration.setOrder(ORDER);
        return registration;
    }
}
