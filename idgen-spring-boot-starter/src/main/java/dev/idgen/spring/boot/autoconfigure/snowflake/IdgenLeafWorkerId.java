package dev.idgen.spring.boot.autoconfigure.snowflake;

import dev.idgen.core.snowflake.SnowflakeLayout;
import dev.idgen.core.snowflake.SnowflakePreset;
import dev.idgen.core.spi.WorkerIdAssigner;
import dev.idgen.spring.boot.autoconfigure.core.IdgenGenerators;
import dev.idgen.spring.boot.autoconfigure.diagnostics.IdgenPropertyValueException;
import dev.idgen.spring.boot.autoconfigure.zookeeper.ZooKeeperConfiguration;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.Enumeration;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.beans.factory.BeanFactory;

/**
 * {@code idgen.snowflake.worker-id-assigner=leaf-zookeeper}: the settings checked at start-up, each failure naming its
 * property, before the assigner registers in ZooKeeper as a Leaf server would.
 */
final class IdgenLeafWorkerId {

    /** host:port, the host without '-' (Leaf splits a node's name at '-'). */
    private static final Pattern ADDRESS = Pattern.compile("([A-Za-z0-9._]{1,253}):(\\d{1,5})");

    private IdgenLeafWorkerId() {}

    /**
     * @param environment where {@code server.port} is read when no address is set
     */
    static WorkerIdAssigner assigner(
            IdgenGenerators.Definition definition, BeanFactory beans, UnaryOperator<String> environment) {
        SnowflakeProperties snowflake = definition.settings(SnowflakeProperties.SECTION);
        SnowflakeProperties.Leaf leaf = snowflake.getLeaf();
        checkLayout(definition);
        String oldWorkerIds = snowflake.getSwitch().getOldWorkerIds();
        if (oldWorkerIds != null && !oldWorkerIds.isBlank()) {
            String property = definition.property("snowflake.switch.old-worker-ids");
            throw new IdgenPropertyValueException(
                    property,
                    oldWorkerIds,
                    SnowflakeStrategy.workerIdAssignerSetting(definition)
                            + " takes its worker id from Leaf's own counter, which keeps"
                            + " it apart from every Leaf server's: it cannot also keep out of configured ids",
                    "Unset " + property + ", or use another worker-id-assigner");
        }
        String nameProperty = definition.property("snowflake.leaf.name");
        String name = leaf.getName();
        if (name == null || name.isBlank()) {
            throw new IdgenPropertyValueException(
                    nameProperty,
                    name,
                    SnowflakeStrategy.workerIdAssignerSetting(definition)
                            + " takes its worker id from Leaf's nodes under"
                            + " /snowflake/{leaf.name}/forever, but no name is set",
                    "Set " + nameProperty + " to the leaf.name of the Leaf servers this instance runs beside or"
                            + " replaces");
        }
        String addressProperty = definition.property("snowflake.leaf.address");
        String address =
                leaf.getAddress() != null ? leaf.getAddress().strip() : defaultAddress(addressProperty, environment);
        Matcher matcher = ADDRESS.matcher(address);
        int port = matcher.matches() ? Integer.parseInt(matcher.group(2)) : 0;
        if (port < 1 || port > 65_535) {
            throw new IdgenPropertyValueException(
                    addressProperty,
                    address,
                    "must be ip:port, the ip without '-' (Leaf splits node names at '-') and the port from 1 to 65535",
                    "Set " + addressProperty + " to the address this instance registers as, such as 10.0.0.7:8080,"
                            + " unique among the running instances and Leaf servers");
        }
        return ZooKeeperConfiguration.leafAssigner(
                beans, definition.property("snowflake.leaf"), name.strip(), matcher.group(1), port);
    }

    /**
     * Leaf's worker ids only keep IDs apart within Leaf's layout and epoch: any other layout would repeat or reorder
     * the Leaf servers' IDs.
     */
    private static void checkLayout(IdgenGenerators.Definition definition) {
        SnowflakeLayout layout = SnowflakeConfiguration.checkedLayout(definition);
        SnowflakeLayout leaf = SnowflakePreset.LEAF.layout().orElseThrow();
        if (!layout.equals(leaf)) {
            String preset = definition.property("snowflake.preset");
            throw new IdgenPropertyValueException(
                    preset,
                    definition.settings(SnowflakeProperties.SECTION).getPreset(),
                    SnowflakeStrategy.workerIdAssignerSetting(definition)
                            + " shares worker ids with Leaf servers, so it needs Leaf's" + " layout " + leaf
                            + ", but the layout is " + layout,
                    "Set " + preset + "=leaf, and unset " + definition.property("snowflake.epoch") + ", time-unit and"
                            + " the bit counts");
        }
    }

    /** The host's first non-loopback IPv4 address, as Leaf's {@code Utils.getIp()} picks it, and server.port. */
    private static String defaultAddress(String addressProperty, UnaryOperator<String> environment) {
        String port = environment.apply("server.port");
        if (port == null || port.isBlank() || port.strip().equals("0")) {
            throw new IdgenPropertyValueException(
                    addressProperty,
                    null,
                    "is not set, and server.port is " + (port == null || port.isBlank() ? "not set" : "0 (random)")
                            + " to take the port from",
                    "Set " + addressProperty + " to ip:port, unique among the running instances and Leaf servers,"
                            + " or a fixed server.port");
        }
        String ip = firstNonLoopbackIpv4();
        if (ip == null) {
            throw new IdgenPropertyValueException(
                    addressProperty,
                    null,
                    "is not set, and this host has no non-loopback IPv4 address to take the ip from",
                    "Set " + addressProperty + " to ip:port, unique among the running instances and Leaf servers");
        }
        return ip + ":" + port.strip();
    }

    private static String firstNonLoopbackIpv4() {
        try {
            Enumeration<NetworkInterface> interfaces = NetworkInterface.getNetworkInterfaces();
            while (interfaces != null && interfaces.hasMoreElements()) {
                Enumeration<InetAddress> addresses = interfaces.nextElement().getInetAddresses();
                while (addresses.hasMoreElements()) {
                    InetAddress address = addresses.nextElement();
                    if (!address.isLoopbackAddress() && !(address instanceof Inet6Address)) {
                        return address.getHostAddress();
                    }
                }
            }
            return null;
        } catch (SocketException e) {
            return null;
        }
    }
}
