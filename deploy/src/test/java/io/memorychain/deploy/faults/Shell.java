package io.memorychain.deploy.faults;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Short commands of the host's network tools ({@code ip}, {@code nft}, {@code tc}), run to completion. */
final class Shell {

    /** What a command printed (stdout and stderr together) and its exit status. */
    record Result(int exit, String output) {

        boolean ok() {
            return exit == 0;
        }
    }

    private Shell() {}

    /** Runs the command and returns its exit status and output; a command still running after 30 s is killed. */
    static Result run(List<String> command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            p.getOutputStream().close();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return new Result(-1, "timed out: " + String.join(" ", command));
            }
            return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8).trim());
        } catch (IOException e) {
            return new Result(-1, e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(-1, "interrupted: " + String.join(" ", command));
        }
    }

    static Result run(String... command) {
        return run(List.of(command));
    }

    /** Runs the command and fails with its output when it exits with another status than 0. */
    static String check(String... command) {
        Result r = run(command);
        if (!r.ok()) {
            throw new IllegalStateException(String.join(" ", command) + " exited " + r.exit() + ": " + r.output());
        }
        return r.output();
    }

    /** Whether an executable of that name is on the PATH. */
    static boolean has(String tool) {
        return run("sh", "-c", "command -v " + tool).ok();
    }
}
