package dev.idgen.spring.boot.entityids;

import dev.idgen.core.IdService;
import dev.idgen.core.form.IdForms;
import dev.idgen.spring.IdgenEntityIds;
import dev.idgen.spring.IdgenId;
import dev.idgen.spring.IdgenIdBeforeConvertCallback;
import dev.idgen.spring.IdgenIdInterceptor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

/**
 * Runs inside a class loader without Hibernate ({@link IdgenIdWithoutHibernateTest}): a whole auto-configured
 * application on an embedded H2 starts, and reports what it sees as plain strings (the only types both loaders share).
 */
public final class WithoutHibernate implements Callable<List<String>> {

    @Override
    public List<String> call() {
        List<String> facts = new ArrayList<>();
        try {
            Class.forName(
                    "org.hibernate.annotations.IdGeneratorType",
                    false,
                    getClass().getClassLoader());
            facts.add("Hibernate is on the classpath");
        } catch (ClassNotFoundException e) {
            facts.add("no Hibernate");
        }
        facts.add("@IdgenId is annotated "
                + Arrays.stream(IdgenId.class.getAnnotations())
                        .map(annotation -> annotation.annotationType().getSimpleName())
                        .sorted()
                        .toList());
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(App.class)
                .web(WebApplicationType.NONE)
                .properties("spring.main.banner-mode=off")
                .run()) {
            facts.add("interceptor beans: "
                    + context.getBeansOfType(IdgenIdInterceptor.class).size());
            facts.add("callback beans: "
                    + context.getBeansOfType(IdgenIdBeforeConvertCallback.class).size());
            facts.add("EntityManagerFactory beans: "
                    + context.getBeanNamesForType(jakarta.persistence.EntityManagerFactory.class).length);
            Row row = new IdgenEntityIds(context.getBean(IdService.class), context.getBean(IdForms.class))
                    .fill(new Row());
            facts.add("filled in: " + (row.id != null && row.id > 0));
        }
        return facts;
    }

    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class App {}

    static class Row {

        @IdgenId("row")
        Long id;
    }
}
