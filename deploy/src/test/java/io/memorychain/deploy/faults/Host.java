package io.memorychain.deploy.faults;

import java.util.ArrayList;
import java.util.List;

/**
 * One of the test's hosts: a network namespace with one interface ({@code eth0}, at {@code address}) whose peer
 * ({@code veth}) is on the test's bridge; or the root namespace itself (no {@code namespace}), at the bridge's address.
 */
record Host(String name, String namespace, String address, String veth) {

    /** The command line that runs {@code command} inside this host's namespace (as it is for the root namespace). */
    List<String> inside(List<String> command) {
        if (namespace == null) {
            return List.copyOf(command);
        }
        List<String> full = new ArrayList<>(List.of("ip", "netns", "exec", namespace));
        full.addAll(command);
        return full;
    }

    /** Runs a short command inside the namespace; fails on a non-zero exit. */
    String exec(String... command) {
        return Shell.check(inside(List.of(command)).toArray(String[]::new));
    }

    String exec(List<String> command) {
        return exec(command.toArray(String[]::new));
    }
}
