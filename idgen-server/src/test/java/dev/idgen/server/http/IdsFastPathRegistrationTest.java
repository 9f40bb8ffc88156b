package dev.idgen.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

/** Where MVC would read an ID request differently, the filter stays out of the way. */
class IdsFastPathRegistrationTest {

    @Test
    void onByDefaultAndWithTomcatsOwnForwardedHeaders() {
        assertThat(IdsFastPathRegistration.servesAsMvcWould(environment(Map.of())))
                .isTrue();
        assertThat(IdsFastPathRegistration.servesAsMvcWould(
                        environment(Map.of("server.forward-headers-strategy", "native"))))
                .isTrue();
        assertThat(IdsFastPathRegistration.servesAsMvcWould(environment(Map.of("spring.mvc.servlet.path", "/"))))
                .isTrue();
    }

    @Test
    void offWithSpringsForwardedHeaderFilterOrMvcUnderAPathOfItsOwn() {
        assertThat(IdsFastPathRegistration.servesAsMvcWould(
                        environment(Map.of("server.forward-headers-strategy", "FRAMEWORK"))))
                .isFalse();
        assertThat(IdsFastPathRegistration.servesAsMvcWould(environment(Map.of("spring.mvc.servlet.path", "/v1"))))
                .isFalse();
    }

    private static StandardEnvironment environment(Map<String, Object> properties) {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(new MapPropertySource("test", properties));
        return environment;
    }
}
