package io.memorychain.bench.load;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/** What the load harnesses share: options, percentiles, memory figures, free ports. */
final class HarnessSupport {

    private HarnessSupport() {}

    /** {@code --key value} pairs. */
    static Map<String, String> options(String[] args, String usage) {
        Map<String, String> opts = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (!args[i].startsWith("--") || i + 1 >= args.length) {
                throw new IllegalArgumentException("usage: " + usage + "; got " + String.join(" ", args));
            }
            opts.put(args[i].substring(2), args[++i]);
        }
        return opts;
    }

    /** p50, p95, p99, p99.9 and max in milliseconds of the positive values. */
    static Map<String, Object> percentiles(long[] nanos) {
        long[] valid = Arrays.stream(nanos).filter(v -> v > 0).sorted().toArray();
        Map<String, Object> m = new LinkedHashMap<>();
        for (double p : new double[] {50, 95, 99, 99.9}) {
            long v = valid.length == 0
                    ? 0
                    : valid[Math.min(valid.length - 1, (int) Math.ceil(p / 100 * valid.length) - 1)];
            m.put("p" + (p == 99.9 ? "999" : String.valueOf((int) p)), round(v / 1e6));
        }
        m.put("max", round(valid.length == 0 ? 0 : valid[valid.length - 1] / 1e6));
        return m;
    }

    /** Heap used after a GC, and the process's resident set (Linux). */
    static Map<String, Object> memory() throws IOException {
        System.gc();
        Runtime rt = Runtime.getRuntime();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("heap_used_after_gc_mib", (rt.totalMemory() - rt.freeMemory()) / (1024 * 1024));
        m.put("heap_max_mib", rt.maxMemory() / (1024 * 1024));
        Path status = Path.of("/proc/self/status");
        if (Files.exists(status)) {
            Files.readAllLines(status).stream()
                    .filter(l -> l.startsWith("VmRSS:") || l.startsWith("VmHWM:"))
                    .forEach(l -> m.put(
                            l.startsWith("VmRSS") ? "rss_mib" : "rss_peak_mib",
                            Long.parseLong(l.replaceAll("\\D", "")) / 1024));
        }
        m.put("jvm", ManagementFactory.getRuntimeMXBean().getVmName() + " " + System.getProperty("java.version"));
        return m;
    }

    static int freePort() throws IOException {
        try (var s = new java.net.ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /** The machine's load average (1, 5 and 15 minutes), or "n/a". */
    static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException | RuntimeException e) {
            return "n/a";
        }
    }

    static double round(double v) {
        return Math.round(v * 100) / 100.0;
    }
}
