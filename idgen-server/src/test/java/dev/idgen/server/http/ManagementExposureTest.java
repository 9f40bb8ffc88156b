package dev.idgen.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.mock.env.MockEnvironment;

/** When the actuator, which takes no token, is reachable from beyond the host: the start-up warning's cases. */
class ManagementExposureTest {

    @Test
    void onLoopbackOrOffItIsNotExposed() {
        assertThat(ManagementExposure.exposure(new MockEnvironment()
                        .withProperty("management.server.port", "8081")
                        .withProperty("management.server.address", "127.0.0.1")))
                .isNull();
        assertThat(ManagementExposure.exposure(new MockEnvironment()
                        .withProperty("management.server.port", "8081")
                        .withProperty("management.server.address", "::1")))
                .isNull();
        assertThat(ManagementExposure.exposure(new MockEnvironment().withProperty("management.server.port", "-1")))
                .isNull();
    }

    @Test
    void onTheApiPortOrEveryInterfaceItIs() {
        assertThat(ManagementExposure.exposure(new MockEnvironment())).contains("the API's port");
        assertThat(ManagementExposure.exposure(new MockEnvironment()
                        .withProperty("server.port", "9000")
                        .withProperty("management.server.port", "9000")))
                .contains("the API's port");
        assertThat(ManagementExposure.exposure(new MockEnvironment()
                        .withProperty("management.server.port", "8081")
                        .withProperty("management.server.address", "")))
                .contains("every interface");
        assertThat(ManagementExposure.exposure(new MockEnvironment()
                        .withProperty("management.server.port", "8081")
                        .withProperty("management.server.address", "0.0.0.0")))
                .contains("binds 0.0.0.0");
    }
}
