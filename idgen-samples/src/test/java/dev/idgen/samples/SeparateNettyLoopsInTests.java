package dev.idgen.samples;

import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.client.ReactorResourceFactory;

/**
 * In the tests only (the sample's component scan finds it on the test class path): every reactive test application
 * runs on Netty event loops of its own. By default every Netty server in a JVM runs on Reactor Netty's global loops,
 * and closing one application disposes them: the servers of the other test contexts still cached in the JVM then stop
 * answering (seen as requests that hung after the context cache closed a reactive context, or a test closed its own).
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
class SeparateNettyLoopsInTests {

    @Bean
    ReactorResourceFactory reactorResourceFactory() {
        ReactorResourceFactory factory = new ReactorResourceFactory();
        factory.setUseGlobalResources(false);
        return factory;
    }
}
