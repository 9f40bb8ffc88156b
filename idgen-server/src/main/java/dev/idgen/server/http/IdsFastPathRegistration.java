package dev.idgen.server.http;

import dev.idgen.server.IdgenServerApi;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;
import org.springframework.web.servlet.HandlerExceptionResolver;
import tools.jackson.databind.json.JsonMapper;

/** {@link IdsFastPath} on {@code /ids/*}, for requests only (an error dispatch goes to MVC). */
@Configuration(proxyBeanMethods = false)
class IdsFastPathRegistration {

    /**
     * First, before Spring's {@code http.server.requests} observation: on an ID request it cost more of the server's
     * CPU than idgen's whole service call (JFR under wrk, docs/benchmarks.md), and {@code idgen.server.requests}
     * already times every ID request that names a name, by client, name, transport and outcome. The other filters
     * before MVC read nothing an ID request has (a form body, a character encoding for parameters it does not
     * decode); Spring's forwarded-header filter does, and then this one is off (see {@link #servesAsMvcWould}).
     */
    static final int ORDER = Ordered.HIGHEST_PRECEDENCE;

    @Bean
    FilterRegistrationBean<IdsFastPath> idsFastPath(
            IdgenServerApi api,
            @Qualifier("handlerExceptionResolver") HandlerExceptionResolver refusals,
            JsonMapper mapper,
            Environment environment) {
        FilterRegistrationBean<IdsFastPath> registration =
                new FilterRegistrationBean<>(new IdsFastPath(api, refusals, mapper));
        registration.addUrlPatterns("/ids/*");
        registration.setOrder(ORDER);
        registration.setEnabled(servesAsMvcWould(environment));
        return registration;
    }

    /**
     * Off where MVC would read the request differently from the filter: with Spring's forwarded-header filter
     * ({@code server.forward-headers-strategy=framework} rewrites the URI a refusal names, after this filter would
     * have answered; Tomcat's own {@code native} strategy rewrites it before every filter) and with MVC's servlet
     * under a path of its own ({@code spring.mvc.servlet.path}, where {@code /ids/...} is not MVC's).
     */
    static boolean servesAsMvcWould(Environment environment) {
        String forwarded = environment.getProperty("server.forward-headers-strategy", "none");
        String servletPath = environment.getProperty("spring.mvc.servlet.path", "/");
        return !forwarded.equalsIgnoreCase("framework") && (servletPath.isEmpty() || servletPath.equals("/"));
    }
}
