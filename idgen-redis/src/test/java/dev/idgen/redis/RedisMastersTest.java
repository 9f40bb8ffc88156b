package dev.idgen.redis;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The parsing in {@link RedisMasters}: fields of {@code INFO} and the server's address in {@code CLIENT INFO}. */
class RedisMastersTest {

    @Test
    void readsAFieldOfAnInfoAnswer() {
        String info = "# Replication\r\nrole:master\r\nconnected_slaves:2\r\nmaster_replid:abc\r\n";

        assertThat(RedisMasters.field(info, "role")).isEqualTo("master");
        assertThat(RedisMasters.field(info, "connected_slaves")).isEqualTo("2");
        assertThat(RedisMasters.field("role:slave\nmaster_host:10.0.0.2", "role"))
                .isEqualTo("slave");
        assertThat(RedisMasters.field(info, "master_host")).isEqualTo("?");
        assertThat(RedisMasters.field(info, "master_repl"))
                .as("a field is matched whole")
                .isEqualTo("?");
    }

    @Test
    void readsTheServersOwnAddressOfAClientInfoAnswer() {
        String clientInfo = "id=7 addr=127.0.0.1:51234 laddr=10.0.0.5:6379 fd=8 name= age=0\n";

        assertThat(RedisMasters.serverAddress(clientInfo, "master")).isEqualTo("10.0.0.5:6379");
        assertThat(RedisMasters.serverAddress("id=7 addr=127.0.0.1:51234 fd=8", "master"))
                .isEqualTo("master");
        assertThat(RedisMasters.serverAddress("id=7 addr=127.0.0.1:51234", null))
                .isNull();
    }
}
