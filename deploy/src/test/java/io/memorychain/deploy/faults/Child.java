package io.memorychain.deploy.faults;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A JVM of the topology (a broker, a service instance, a worker) started inside its host's namespace with {@code ip
 * netns exec}, which enters the namespace and then execs the command: the PID the test holds is the JVM's own (checked
 * at start), so {@link #kill()} is a SIGKILL of that JVM. Output is appended to a log file, across restarts.
 */
final class Child {

    private static final Logger LOG = LoggerFactory.getLogger(Child.class);

    private final String name;
    private final Host host;
    private final List<String> command;
    private final Map<String, String> environment;
    private final Path log;
    private volatile Process process;

    Child(String name, Host host, List<String> command, Map<String, String> environment, Path log) {
        this.name = name;
        this.host = host;
        this.command = List.copyOf(command);
        this.environment = Map.copyOf(environment);
        this.log = log;
    }

    String name() {
        return name;
    }

    Host host() {
        return host;
    }

    Path log() {
        return log;
    }

    synchronized void start() {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException(name + " is already running");
        }
        try {
            Files.createDirectories(log.getParent());
            ProcessBuilder builder = new ProcessBuilder(host.inside(command))
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
            builder.environment().putAll(environment);
            Files.writeString(
                    log,
                    "---- " + java.time.Instant.now() + " start " + name + "\n",
                    java.nio.file.StandardOpenOption.CREATE,
                    java.nio.file.StandardOpenOption.APPEND);
            process = builder.start();
            process.getOutputStream().close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + name, e);
        }
        LOG.info("Started {} (pid {}) in {}, output in {}", name, process.pid(), host.namespace(), log);
    }

    /** Fails unless the process is a java executable in this host's namespace (ip netns exec replaced itself). */
    void checkIsTheJvm() {
        Process p = process;
        try {
            Path exe = Files.readSymbolicLink(Path.of("/proc", String.valueOf(p.pid()), "exe"));
            String netns = Files.readSymbolicLink(Path.of("/proc", String.valueOf(p.pid()), "ns", "net"))
                    .toString();
            String expected =
                    Files.readSymbolicLink(Path.of("/proc/self/ns/net")).toString();
            if (!exe.getFileName().toString().equals("java") || netns.equals(expected)) {
                throw new IllegalStateException(name + ": pid " + p.pid() + " is " + exe + " in " + netns
                        + ", not a JVM in namespace " + host.namespace());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(name + ": cannot read /proc of pid " + p.pid(), e);
        }
    }

    boolean alive() {
        Process p = process;
        return p != null && p.isAlive();
    }

    long pid() {
        return process.pid();
    }

    /** SIGKILL, and waits until the process is gone. */
    void kill() {
        Process p = process;
        if (p == null) {
            return;
        }
        p.destroyForcibly();
        awaitExit(p, 30);
        LOG.info("Killed {} (pid {}) with SIGKILL", name, p.pid());
    }

    /** SIGTERM, then SIGKILL after 20 s. */
    void stop() {
        Process p = process;
        if (p == null || !p.isAlive()) {
            return;
        }
        p.destroy();
        if (!awaitExit(p, 20)) {
            p.destroyForcibly();
            awaitExit(p, 10);
        }
    }

    private static boolean awaitExit(Process p, int seconds) {
        try {
            return p.waitFor(seconds, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Waits for a one-shot command to end; fails with the log's tail unless it ends with status 0 in time. */
    void awaitExit(java.time.Duration timeout) {
        Process p = process;
        if (!awaitExit(p, (int) timeout.toSeconds())) {
            p.destroyForcibly();
            throw new IllegalStateException(name + " did not end within " + timeout + ":\n" + tail(40));
        }
        if (p.exitValue() != 0) {
            throw new IllegalStateException(name + " exited with " + p.exitValue() + ":\n" + tail(40));
        }
    }

    /** Fails with the log's tail when the process has exited. */
    void checkAlive() {
        Process p = process;
        if (p != null && !p.isAlive()) {
            throw new IllegalStateException(
                    name + " exited with " + p.exitValue() + "; last lines of " + log + ":\n" + tail(40));
        }
    }

    String tail(int lines) {
        try {
            List<String> all = Files.readAllLines(log);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(cannot read " + log + ": " + e + ")";
        }
    }
}
