package dev.idgen.spring.boot.autoconfigure.json;

import dev.idgen.spring.IdgenId;
import dev.idgen.spring.jackson.IdgenJackson2Module;
import dev.idgen.spring.jackson.IdgenJacksonModule;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * {@link IdgenId @IdgenId} longs as JSON strings: a Jackson module bean for each Jackson on the
 * classpath, which Spring Boot's Jackson auto-configuration adds to the mapper it builds ({@code JacksonModule} beans
 * for Jackson 3, {@code Module} beans for Jackson 2). Independent of the generators: DTOs carry IDs whether or not
 * this application issues them.
 */
@AutoConfiguration
@EnableConfigurationProperties(IdgenJsonProperties.class)
public final class IdgenJsonAutoConfiguration {

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "tools.jackson.databind.json.JsonMapper")
    static class Jackson3Configuration {

        @Bean
        @ConditionalOnMissingBean
        IdgenJacksonModule idgenJacksonModule(IdgenJsonProperties properties) {
            return new IdgenJacksonModule(properties.isIdsAsStrings());
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "com.fasterxml.jackson.databind.ObjectMapper")
    static class Jackson2Configuration {

        @Bean
        @ConditionalOnMissingBean
        IdgenJackson2Module idgenJackson2Module(IdgenJsonProperties properties) {
            return new IdgenJackson2Module(properties.isIdsAsStrings());
        }
    }
}
