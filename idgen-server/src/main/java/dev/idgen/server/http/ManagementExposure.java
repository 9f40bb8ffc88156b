package dev.idgen.server.http;

import java.net.InetAddress;
import java.net.UnknownHostException;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * Warns once the server is up when its actuator, which takes no token, answers beyond this host: on the API's port
 * ({@code management.server.port} unset or equal to {@code server.port}) or on an address other than loopback. Both
 * are an operator's choice, so the server starts; the warning makes sure it was one.
 */
@Component
final class ManagementExposure implements ApplicationListener<ApplicationReadyEvent> {

    private static final Log LOG = LogFactory.getLog(ManagementExposure.class);

    @Override
    public void onApplicationEvent(ApplicationReadyEvent event) {
        String exposed = exposure(event.getApplicationContext().getEnvironment());
        if (exposed != null) {
            LOG.warn("The actuator (health, prometheus, idgen: every name, and decoding any ID) takes no token and "
                    + exposed + ". Firewall it, or set management.server.port to a port of its own and"
                    + " management.server.address=127.0.0.1 (the defaults); docs/server.md#who-can-do-what");
        }
    }

    /** @return how the actuator is reachable from elsewhere, or {@code null} when it is on loopback or off */
    static String exposure(Environment environment) {
        String port = environment.getProperty("management.server.port");
        if (port == null || port.isBlank() || port.equals(environment.getProperty("server.port", "8080"))) {
            return "answers on the API's port (management.server.port is " + (port == null ? "unset" : port) + ")";
        }
        if (port.equals("-1")) {
            return null;
        }
        String address = environment.getProperty("management.server.address");
        if (address == null || address.isBlank()) {
            return "binds every interface (management.server.address is unset)";
        }
        try {
            InetAddress bound = InetAddress.getByName(address);
            return bound.isLoopbackAddress() ? null : "binds " + address + " (management.server.address)";
        } catch (UnknownHostException e) {
            return "binds " + address + " (management.server.address)";
        }
    }
}
