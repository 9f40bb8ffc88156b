package dev.idgen.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.spring.boot.autoconfigure.diagnostics.IdgenPropertyValueException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A server that would be unprotected or misconfigured does not start: the failure names the property, in the
 * exception and in the failure analysis Spring Boot prints.
 */
@ExtendWith(OutputCaptureExtension.class)
class StartupFailureTest {

    private static final String APP_HASH = "--idgen.server.clients.app.token-hash=" + ServerHttp.tokenHash("app");

    @Test
    void noClientAndNoAnonymousAccess(CapturedOutput output) {
        assertFailsNaming("idgen.server.clients", output).hasMessageContaining("idgen.server.anonymous");
        assertThat(output).contains("idgen.server.anonymous=true");
    }

    @Test
    void aTokenHashNotSha256Hex(CapturedOutput output) {
        assertFailsNaming(
                "idgen.server.clients.app.token-hash", output, "--idgen.server.clients.app.token-hash=secret");
        assertFailsNaming(
                "idgen.server.clients.app.token-hash",
                output,
                "--idgen.server.clients.app.token-hash="
                        + ServerHttp.tokenHash("app").toUpperCase(java.util.Locale.ROOT));
    }

    @Test
    void maxCountOutOfRange(CapturedOutput output) {
        assertFailsNaming("idgen.server.max-count", output, APP_HASH, "--idgen.server.max-count=0")
                .hasMessageContaining("between 1 and 10000");
        assertFailsNaming("idgen.server.max-count", output, APP_HASH, "--idgen.server.max-count=10001");
    }

    @Test
    void maxBlockSizeOutOfRange(CapturedOutput output) {
        assertFailsNaming("idgen.server.max-block-size", output, APP_HASH, "--idgen.server.max-block-size=1000000001")
                .hasMessageContaining("between 1 and 1000000000");
    }

    @Test
    void boundsOfWorkAndNamesOutOfRange(CapturedOutput output) {
        assertFailsNaming("idgen.server.store-threads", output, APP_HASH, "--idgen.server.store-threads=0")
                .hasMessageContaining("between 1 and 1024");
        assertFailsNaming("idgen.server.store-queue", output, APP_HASH, "--idgen.server.store-queue=-1");
        assertFailsNaming("idgen.server.request-timeout", output, APP_HASH, "--idgen.server.request-timeout=0s");
        assertFailsNaming("idgen.server.grpc.threads", output, APP_HASH, "--idgen.server.grpc.threads=1");
        assertFailsNaming(
                "idgen.server.grpc.max-calls-per-connection",
                output,
                APP_HASH,
                "--idgen.server.grpc.max-calls-per-connection=0");
        assertFailsNaming(
                        "idgen.server.clients.app.max-names",
                        output,
                        APP_HASH,
                        "--idgen.server.clients.app.max-names=0")
                .hasMessageContaining("between 1 and 100000");
        assertFailsNaming("idgen.server.name-idle", output, APP_HASH, "--idgen.server.name-idle=0s");
    }

    @Test
    void anUnknownGenerator(CapturedOutput output) {
        assertFailsNaming(
                        "idgen.server.clients.app.generators",
                        output,
                        APP_HASH,
                        "--idgen.server.clients.app.generators=default,nope")
                .hasMessageContaining("nope");
    }

    @Test
    void aNegativeRateLimit(CapturedOutput output) {
        assertFailsNaming(
                "idgen.server.clients.app.rate-limit", output, APP_HASH, "--idgen.server.clients.app.rate-limit=-1");
    }

    @Test
    void aRateLimitSoLowItWouldMeanNone(CapturedOutput output) {
        assertFailsNaming(
                        "idgen.server.clients.app.rate-limit",
                        output,
                        APP_HASH,
                        "--idgen.server.clients.app.rate-limit=0.0000001")
                .hasMessageContaining("0.001");
    }

    @Test
    void aClientCalledAnonymous(CapturedOutput output) {
        assertFailsNaming(
                "idgen.server.clients.anonymous",
                output,
                "--idgen.server.clients.anonymous.token-hash=" + ServerHttp.tokenHash("app"));
    }

    @Test
    void twoClientsWithOneToken(CapturedOutput output) {
        assertFailsNaming(
                "idgen.server.clients.",
                output,
                APP_HASH,
                "--idgen.server.clients.other.token-hash=" + ServerHttp.tokenHash("app"));
    }

    @Test
    void aGrpcPortOutOfRange(CapturedOutput output) {
        assertFailsNaming("idgen.server.grpc.port", output, APP_HASH, "--idgen.server.grpc.port=70000")
                .hasMessageContaining("65535");
    }

    @Test
    void anUnknownGrpcSslBundle(CapturedOutput output) {
        assertFailsNaming("idgen.server.grpc.ssl-bundle", output, APP_HASH, "--idgen.server.grpc.ssl-bundle=nope")
                .hasMessageContaining("nope");
    }

    @Test
    void segmentsWithoutADatabaseSayWhatToSet(CapturedOutput output) {
        int before = output.length();
        assertThatThrownBy(() ->
                        ServerApps.start(APP_HASH, "--idgen.strategy=segment").close())
                .hasStackTraceContaining("spring.datasource.url");
        assertThat(output.toString().substring(before)).contains("APPLICATION FAILED TO START");
    }

    @Test
    void anonymousAccessStartsWithoutClientsAndLetsRequestsInWithoutAToken() {
        try (ConfigurableApplicationContext server = ServerApps.start("--idgen.server.anonymous=true")) {
            ServerHttp http = new ServerHttp("http://127.0.0.1:" + ServerApps.port(server));
            assertThat(http.get("/ids/orders?count=2", null).json()).hasSize(2);
            assertThat(http.get("/blocks", null).json().get("client").stringValue())
                    .isEqualTo("anonymous");
            // A token nobody has is still wrong, not anonymous.
            assertThat(http.get("/ids/orders", "made-up").status()).isEqualTo(401);
        }
    }

    @Test
    void leafsSnowflakePathWithoutASnowflakeGenerator(CapturedOutput output) {
        String leaf = "--idgen.server.compat.leaf.enabled=true";
        String property = "idgen.server.compat.leaf.snowflake-generator";
        assertFailsNaming(property, output, APP_HASH, leaf);
        assertThat(output).contains("snowflake-enabled=false");
        assertFailsNaming(property, output, APP_HASH, leaf, "--" + property + "=nope")
                .hasMessageContaining("nope");
        List<String> segments = new ArrayList<>(ServerApps.segmentsOnMariaDb("idgen_startup_peer_test"));
        segments.addAll(List.of(APP_HASH, leaf, "--" + property + "=default"));
        assertFailsNaming(property, output, segments.toArray(String[]::new)).hasMessageContaining("not snowflake");
    }

    @Test
    void leafsTokenlessAccessMisconfigured(CapturedOutput output) {
        String leaf = "--idgen.server.compat.leaf.enabled=true";
        String snow = "--idgen.server.compat.leaf.snowflake-generator=default";
        assertFailsNaming(
                        "idgen.server.compat.leaf.tokenless-names",
                        output,
                        APP_HASH,
                        leaf,
                        snow,
                        "--idgen.server.compat.leaf.tokenless-names=orders,*")
                .hasMessageContaining("'*'");
        assertFailsNaming(
                "idgen.server.compat.leaf.tokenless-rate-limit",
                output,
                APP_HASH,
                leaf,
                snow,
                "--idgen.server.compat.leaf.tokenless-names=orders",
                "--idgen.server.compat.leaf.tokenless-rate-limit=-1");
        assertFailsNaming(
                "idgen.server.clients.leaf-tokenless",
                output,
                "--idgen.server.clients.leaf-tokenless.token-hash=" + ServerHttp.tokenHash("app"));
    }

    @Test
    void tinyidSegmentSizeOutOfRange(CapturedOutput output) {
        String tinyid = "--idgen.server.compat.tinyid.enabled=true";
        assertFailsNaming(
                        "idgen.server.compat.tinyid.segment-size",
                        output,
                        APP_HASH,
                        tinyid,
                        "--idgen.server.max-block-size=500",
                        "--idgen.server.compat.tinyid.segment-size=501")
                .hasMessageContaining("between 1 and 500");
    }

    @Test
    void leafsPathsNeedATokenUnlessTokenlessNamesAreListed() {
        try (ConfigurableApplicationContext server = ServerApps.start(
                APP_HASH,
                "--idgen.server.compat.leaf.enabled=true",
                "--idgen.server.compat.leaf.snowflake-enabled=false")) {
            ServerHttp http = new ServerHttp("http://127.0.0.1:" + ServerApps.port(server));
            assertThat(http.get("/api/segment/get/orders", null).status()).isEqualTo(401);
            assertThat(http.get("/api/segment/get/orders", "app").status()).isEqualTo(200);
            // Its Snowflake path off: not served.
            assertThat(http.get("/api/snowflake/get/orders", "app").status()).isEqualTo(404);
        }
        try (ConfigurableApplicationContext server = ServerApps.start(
                APP_HASH,
                "--idgen.server.compat.leaf.enabled=true",
                "--idgen.server.compat.leaf.snowflake-generator=default",
                "--idgen.server.compat.leaf.tokenless-names=orders,default")) {
            ServerHttp http = new ServerHttp("http://127.0.0.1:" + ServerApps.port(server));
            assertThat(http.get("/api/segment/get/orders", null).status()).isEqualTo(200);
            assertThat(http.get("/api/snowflake/get/x", null).status()).isEqualTo(200);
            assertThat(http.get("/api/segment/get/other", null).status()).isEqualTo(500);
            assertThat(http.get("/ids/orders", null).status()).isEqualTo(401);
        }
        try (ConfigurableApplicationContext server = ServerApps.start(APP_HASH)) {
            // Off by default: Leaf's and Tinyid's paths are not there.
            ServerHttp http = new ServerHttp("http://127.0.0.1:" + ServerApps.port(server));
            assertThat(http.get("/api/segment/get/orders", "app").status()).isEqualTo(404);
            assertThat(http.get("/tinyid/id/nextId?bizType=orders&token=app", null)
                            .status())
                    .isEqualTo(404);
        }
    }

    private static org.assertj.core.api.AbstractThrowableAssert<?, ? extends Throwable> assertFailsNaming(
            String property, CapturedOutput output, String... arguments) {
        int before = output.length();
        var failure = assertThatThrownBy(() -> ServerApps.start(arguments).close())
                .rootCause()
                .isInstanceOf(IdgenPropertyValueException.class)
                .hasMessageContaining(property);
        // Spring Boot's failure analysis, as an operator reads it.
        assertThat(output.toString().substring(before))
                .contains("APPLICATION FAILED TO START")
                .contains("configuration property '" + property);
        return failure;
    }
}
