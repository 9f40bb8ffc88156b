package dev.idgen.samples;

import org.apache.catalina.Host;
import org.apache.catalina.Valve;
import org.apache.catalina.core.StandardHost;
import org.apache.catalina.valves.ErrorReportValve;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

/**
 * Puts {@link ProblemJsonErrorReportValve} in place of Tomcat's HTML error report on the embedded Tomcat's host, and
 * {@link BodilessErrorFilter} before the actuator endpoints. Servlet only: on WebFlux (the {@code reactive} profile)
 * {@link NettyRejectedRequestProblems} and {@link BodilessErrorWebFilter} do the same for Netty.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
class ProblemJsonErrorReports {

    @Bean
    WebServerFactoryCustomizer<TomcatServletWebServerFactory> problemJsonErrorReportValve() {
        return new Customizer();
    }

    /** Only the actuator answers errors without a body; the service's own errors always carry a problem. */
    @Bean
    FilterRegistrationBean<BodilessErrorFilter> bodilessErrorFilter() {
        FilterRegistrationBean<BodilessErrorFilter> registration =
                new FilterRegistrationBean<>(new BodilessErrorFilter());
        registration.addUrlPatterns("/actuator/*");
        return registration;
    }

    /** Last, so that it replaces the ErrorReportValve Spring Boot's own Tomcat customizer adds to the host. */
    private static final class Customizer
            implements WebServerFactoryCustomizer<TomcatServletWebServerFactory>, Ordered {

        @Override
        public void customize(TomcatServletWebServerFactory factory) {
            factory.addContextCustomizers(context -> {
                Host host = (Host) context.getParent();
                for (Valve valve : host.getPipeline().getValves()) {
                    if (valve instanceof ErrorReportValve && !(valve instanceof ProblemJsonErrorReportValve)) {
                        host.getPipeline().removeValve(valve);
                    }
                }
                host.getPipeline().addValve(new ProblemJsonErrorReportValve());
                if (host instanceof StandardHost standardHost) {
                    // Else the host adds its default HTML ErrorReportValve when it starts.
                    standardHost.setErrorReportValveClass(ProblemJsonErrorReportValve.class.getName());
                }
            });
        }

        @Override
        public int getOrder() {
            return Ordered.LOWEST_PRECEDENCE;
        }
    }
}
