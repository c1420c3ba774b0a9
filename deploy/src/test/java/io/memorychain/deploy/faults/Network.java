package io.memorychain.deploy.faults;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The test's hosts: one network namespace each, joined by a veth pair to one Linux bridge in the root namespace, on a
 * private /24 the test picks. The root namespace (the bridge's address) is where the test itself runs. Faults:
 * partitions (nftables drop rules in a host's namespace, both directions: connections stall as on a real network,
 * rather than failing at once as a blackhole route would), packet loss (nftables {@code numgen random} drop) and a slow
 * link (a token bucket filter on both ends of a host's veth). Every name starts with {@link #PREFIX}, so that
 * {@link #removeLeftovers()} can clean up what an aborted run left.
 */
final class Network implements AutoCloseable {

    static final String PREFIX = "mcf-";
    private static final String BRIDGE = PREFIX + "br0";
    private static final String SUBNET = "10.213.77.";
    private static final String PARTITION_TABLE = "mcf_partition";
    private static final String LOSS_TABLE = "mcf_loss";
    private static final Logger LOG = LoggerFactory.getLogger(Network.class);

    private final Map<String, Host> hosts = new LinkedHashMap<>();

    private Network() {}

    /**
     * Whether this process may make namespaces here (root, and {@code ip netns add} works); null if so, else why not.
     */
    static String cannotRun() {
        if (!Shell.has("ip")) {
            return "no 'ip' command (iproute2)";
        }
        if (!Shell.has("nft")) {
            return "no 'nft' command (Debian package nftables): partitions and packet loss need it";
        }
        if (!Shell.has("tc")) {
            return "no 'tc' command (iproute2)";
        }
        String probe = PREFIX + "probe";
        Shell.run("ip", "netns", "del", probe);
        Shell.Result add = Shell.run("ip", "netns", "add", probe);
        if (!add.ok()) {
            return "cannot create a network namespace (not root?): " + add.output();
        }
        Shell.Result nft = Shell.run("ip", "netns", "exec", probe, "nft", "add table inet " + PARTITION_TABLE);
        Shell.run("ip", "netns", "del", probe);
        if (!nft.ok()) {
            return "nftables does not work in a namespace here: " + nft.output();
        }
        return null;
    }

    /** Removes the namespaces and the bridge an earlier, aborted run left, and kills the processes still in them. */
    static void removeLeftovers() {
        for (String ns : namespaces()) {
            for (String pid :
                    Shell.run("ip", "netns", "pids", ns).output().lines().toList()) {
                if (pid.matches("\\d+")) {
                    LOG.warn("Killing pid {} left in namespace {} by an earlier run", pid, ns);
                    Shell.run("kill", "-KILL", pid);
                }
            }
            Shell.run("ip", "netns", "del", ns);
        }
        if (Shell.run("ip", "link", "show", BRIDGE).ok()) {
            Shell.run("ip", "link", "del", BRIDGE);
        }
    }

    private static List<String> namespaces() {
        return Shell.run("ip", "netns", "list")
                .output()
                .lines()
                .map(l -> l.split(" ")[0])
                .filter(n -> n.startsWith(PREFIX))
                .toList();
    }

    /** The bridge and one namespace per host name, addresses {@code .11} upwards in the order given. */
    static Network create(List<String> names) {
        Network net = new Network();
        try {
            Shell.check("ip", "link", "add", BRIDGE, "type", "bridge");
            Shell.check("ip", "addr", "add", SUBNET + "1/24", "dev", BRIDGE);
            Shell.check("ip", "link", "set", BRIDGE, "up");
            int octet = 11;
            for (String name : names) {
                Host host = new Host(name, PREFIX + name, SUBNET + octet++, PREFIX + name);
                Shell.check("ip", "netns", "add", host.namespace());
                net.hosts.put(name, host);
                Shell.check(
                        "ip",
                        "link",
                        "add",
                        host.veth(),
                        "type",
                        "veth",
                        "peer",
                        "name",
                        "eth0",
                        "netns",
                        host.namespace());
                Shell.check("ip", "link", "set", host.veth(), "master", BRIDGE, "up");
                host.exec("ip", "addr", "add", host.address() + "/24", "dev", "eth0");
                host.exec("ip", "link", "set", "eth0", "up");
                host.exec("ip", "link", "set", "lo", "up");
            }
        } catch (RuntimeException e) {
            net.close();
            throw e;
        }
        LOG.info(
                "Network {}0/24 on bridge {}: {}",
                SUBNET,
                BRIDGE,
                net.hosts.values().stream()
                        .map(h -> h.name() + "=" + h.address())
                        .collect(Collectors.joining(", ")));
        return net;
    }

    Host host(String name) {
        Host h = hosts.get(name);
        if (h == null) {
            throw new IllegalArgumentException("no host " + name);
        }
        return h;
    }

    /** The root namespace, at the bridge's address: where the test runs and the registry listens. */
    Host root() {
        return new Host("root", null, SUBNET + "1", BRIDGE);
    }

    /** Cuts {@code host} off from {@code others}, both directions (packets dropped in the host's namespace). */
    void partition(Host host, Collection<Host> others) {
        String addresses = others.stream().map(Host::address).collect(Collectors.joining(", "));
        host.exec(
                "nft",
                "add table inet " + PARTITION_TABLE + "; "
                        + "add chain inet " + PARTITION_TABLE
                        + " in { type filter hook input priority 0; policy accept; }; "
                        + "add chain inet " + PARTITION_TABLE
                        + " out { type filter hook output priority 0; policy accept; }; "
                        + "add rule inet " + PARTITION_TABLE + " in ip saddr { " + addresses + " } drop; "
                        + "add rule inet " + PARTITION_TABLE + " out ip daddr { " + addresses + " } drop");
    }

    /** Ends every partition of {@code host}. */
    void heal(Host host) {
        host.exec("nft", "delete table inet " + PARTITION_TABLE);
    }

    /**
     * Degrades the host's link: {@code lossPercent} of the packets it sends and receives dropped at random, and both
     * directions limited to {@code rate} (a token bucket queueing up to {@code queueMillis} of traffic before dropping:
     * a slow, lossy link).
     */
    void degrade(Host host, int lossPercent, String rate, int queueMillis) {
        host.exec(
                "nft",
                "add table inet " + LOSS_TABLE + "; "
                        + "add chain inet " + LOSS_TABLE + " in { type filter hook input priority 0; policy accept; }; "
                        + "add chain inet " + LOSS_TABLE
                        + " out { type filter hook output priority 0; policy accept; }; "
                        + "add rule inet " + LOSS_TABLE + " in meta iifname eth0 numgen random mod 100 < "
                        + lossPercent + " drop; "
                        + "add rule inet " + LOSS_TABLE + " out meta oifname eth0 numgen random mod 100 < "
                        + lossPercent + " drop");
        List<String> tbf = List.of("tbf", "rate", rate, "burst", "32kbit", "latency", queueMillis + "ms");
        host.exec(concat(List.of("tc", "qdisc", "add", "dev", "eth0", "root"), tbf));
        Shell.check(concat(List.of("tc", "qdisc", "add", "dev", host.veth(), "root"), tbf)
                .toArray(String[]::new));
    }

    /** Ends {@link #degrade}. */
    void restore(Host host) {
        host.exec("nft", "delete table inet " + LOSS_TABLE);
        host.exec("tc", "qdisc", "del", "dev", "eth0", "root");
        Shell.check("tc", "qdisc", "del", "dev", host.veth(), "root");
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    /** Deletes the namespaces (their veth pairs go with them) and the bridge. */
    @Override
    public void close() {
        for (Host h : hosts.values()) {
            Shell.Result r = Shell.run("ip", "netns", "del", h.namespace());
            if (!r.ok()) {
                LOG.warn("Could not delete namespace {}: {}", h.namespace(), r.output());
            }
        }
        hosts.clear();
        Shell.run("ip", "link", "del", BRIDGE);
    }
}
