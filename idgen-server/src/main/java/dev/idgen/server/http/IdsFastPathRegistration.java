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
     * First, before Spring's {@code http.server.requests} observation: on an ID request it cost more of the server's
     * CPU than idgen's whole service call (JFR under wrk, docs/benchmarks.md), and {@code idgen.server.requests}
     * already times every ID request by client, name, transport and outcome. The other filters before MVC read
     * nothing an ID request has (a form body, a character encoding for parameters it does not decode).
     */
    static final int ORDER = Ordered.HIGHEST_PRECEDENCE;

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
