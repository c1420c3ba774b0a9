package io.memorychain.clients;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Runs a command, streaming its output (stdout and stderr merged) to the log line by line, and keeps it. */
final class Subprocess {

    private static final Logger log = LoggerFactory.getLogger(Subprocess.class);

    record Result(int exitCode, List<String> lines) {

        String output() {
            return String.join("\n", lines);
        }
    }

    private Subprocess() {}

    static Result run(String label, Path dir, Map<String, String> env, Duration timeout, String... command) {
        ProcessBuilder builder =
                new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
        builder.environment().putAll(env);
        builder.environment().put("CI", "true"); // npm and vitest: no progress bars or watch mode
        log.info("[{}] $ {} (in {})", label, String.join(" ", command), dir);
        List<String> lines = Collections.synchronizedList(new ArrayList<>());
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + command[0], e);
        }
        Thread reader = new Thread(
                () -> {
                    try (BufferedReader in = new BufferedReader(
                            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                        for (String line = in.readLine(); line != null; line = in.readLine()) {
                            lines.add(line);
                            log.info("[{}] {}", label, line);
                        }
                    } catch (IOException e) {
                        log.warn("[{}] output cut off: {}", label, e.toString());
                    }
                },
                "subprocess-" + label);
        reader.start();
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
                throw new IllegalStateException(label + ": no exit within " + timeout);
            }
            reader.join(Duration.ofSeconds(10).toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new IllegalStateException(label + " interrupted", e);
        }
        return new Result(process.exitValue(), List.copyOf(lines));
    }

    /** The first line a command prints (its version), or empty when it cannot run here. */
    static Optional<String> version(String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0
                    ? Optional.of(out.lines().findFirst().orElse(""))
                    : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }
}
