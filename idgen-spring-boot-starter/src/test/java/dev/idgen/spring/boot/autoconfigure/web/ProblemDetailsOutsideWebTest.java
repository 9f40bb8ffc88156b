package dev.idgen.spring.boot.autoconfigure.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.core.IdService;
import dev.idgen.spring.web.IdgenProblemHandler;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** An application that is not a web application gets idgen without a problem handler. */
class ProblemDetailsOutsideWebTest {

    @Test
    void aNonWebApplicationHasNoProblemHandler() {
        new ApplicationContextRunner()
                .withConfiguration(StarterAutoConfigurations.with())
                .run(context -> {
                    assertThat(context).hasSingleBean(IdService.class);
                    assertThat(context).doesNotHaveBean(IdgenProblemHandler.class);
                });
    }
}
