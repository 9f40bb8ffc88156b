package dev.idgen.spring.boot.contract;

import dev.idgen.core.DecodedId;
import dev.idgen.core.IdSequence;
import dev.idgen.core.IdService;
import dev.idgen.test.IdServiceContract;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

/**
 * The {@link IdService} contract on the service Spring Boot builds from properties: each strategy's subclass names
 * its properties, and every test runs against the {@code IdService} bean of an application of its own.
 */
abstract class SpringIdServiceContract extends IdServiceContract {

    /**
     * @return the application's properties, {@code key=value}
     */
    protected abstract List<String> properties();

    @Override
    protected IdService service() {
        List<String> properties = new ArrayList<>(properties());
        properties.add("spring.main.banner-mode=off");
        ConfigurableApplicationContext context = new SpringApplicationBuilder(App.class)
                .web(WebApplicationType.NONE)
                .properties(properties.toArray(String[]::new))
                .run();
        return new ContextIdService(context.getBean(IdService.class), context);
    }

    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class App {}

    /** The application's service; closing it closes the application. */
    private record ContextIdService(IdService service, ConfigurableApplicationContext context)
            implements IdService, AutoCloseable {

        @Override
        public String strategy() {
            return service.strategy();
        }

        @Override
        public long nextId(String name) {
            return service.nextId(name);
        }

        @Override
        public long[] nextIds(String name, int count) {
            return service.nextIds(name, count);
        }

        @Override
        public DecodedId decode(long id) {
            return service.decode(id);
        }

        @Override
        public DecodedId decode(String name, long id) {
            return service.decode(name, id);
        }

        @Override
        public IdSequence sequence(String name) {
            return service.sequence(name);
        }

        @Override
        public void close() {
            context.close();
        }
    }
}
