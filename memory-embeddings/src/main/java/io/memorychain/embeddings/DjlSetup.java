package io.memorychain.embeddings;

import java.nio.file.Files;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * JVM-wide settings DJL reads before it loads the tokenizer's native library: where that library is unpacked and
 * offline mode. DJL reads each setting from the environment first and then from system properties, so this class only
 * ever sets system properties and never overrides an environment variable.
 */
final class DjlSetup {

    private static final Logger log = LoggerFactory.getLogger(DjlSetup.class);

    static final String CACHE_DIR = "DJL_CACHE_DIR";
    /** DJL's offline switch: no native library download, no telemetry. */
    static final String OFFLINE = "ai.djl.offline";
    /** Without it (or offline mode), DJL's tokenizer factory probes the EC2 metadata endpoint for telemetry. */
    static final String OPT_OUT_TRACKING = "OPT_OUT_TRACKING";
    /** Folder under {@code java.io.tmpdir} used when the home directory is not writable. */
    static final String TMP_FALLBACK = "memory-chain-djl";

    private static Path applied;

    private DjlSetup() {}

    /** Where DJL will unpack its native library, why, and whether the system property must be set for it. */
    record CacheDir(Path dir, String source, boolean setProperty) {}

    /**
     * Decides the cache folder. Order: the {@code DJL_CACHE_DIR} environment variable (DJL always prefers it), the
     * configured folder, the {@code DJL_CACHE_DIR} system property, {@code $HOME/.djl.ai} when writable, else
     * {@code ${java.io.tmpdir}/memory-chain-djl}. Pure: everything it looks at is a parameter.
     */
    static CacheDir resolveCacheDir(Path configured, String envValue, String propertyValue, Path home, Path tmpDir) {
        if (envValue != null && !envValue.isBlank()) {
            return new CacheDir(Path.of(envValue), "environment variable " + CACHE_DIR, false);
        }
        if (configured != null) {
            return new CacheDir(configured, "configured", true);
        }
        if (propertyValue != null && !propertyValue.isBlank()) {
            return new CacheDir(Path.of(propertyValue), "system property " + CACHE_DIR, false);
        }
        if (home != null) {
            Path inHome = home.resolve(".djl.ai");
            if (canCreateOrWrite(inHome)) {
                return new CacheDir(inHome, "home directory", true);
            }
        }
        return new CacheDir(tmpDir.resolve(TMP_FALLBACK), "java.io.tmpdir (home directory not writable)", true);
    }

    /** True when {@code dir} is a writable folder, or does not exist yet and its parent is a writable folder. */
    static boolean canCreateOrWrite(Path dir) {
        if (Files.isDirectory(dir)) {
            return Files.isWritable(dir);
        }
        Path parent = dir.toAbsolutePath().getParent();
        return !Files.exists(dir) && parent != null && Files.isDirectory(parent) && Files.isWritable(parent);
    }

    /**
     * Applies the settings to this JVM: the cache folder (see {@link #resolveCacheDir}) and offline mode
     * ({@code ai.djl.offline=true} and {@code OPT_OUT_TRACKING=true}, unless already set). DJL loads its native library
     * once per JVM, so only the first call decides the folder; a later, different folder is logged and ignored.
     *
     * @return the folder DJL uses
     */
    static synchronized Path apply(Path configured) {
        System.getProperties().putIfAbsent(OFFLINE, "true");
        System.getProperties().putIfAbsent(OPT_OUT_TRACKING, "true");
        String home = System.getProperty("user.home");
        CacheDir decided = resolveCacheDir(
                configured,
                System.getenv(CACHE_DIR),
                System.getProperty(CACHE_DIR),
                home == null || home.isBlank() || "?".equals(home) ? null : Path.of(home),
                Path.of(System.getProperty("java.io.tmpdir")));
        if (applied != null) {
            if (!applied.equals(decided.dir())) {
                log.warn(
                        "DJL cache dir {} ({}) ignored: the tokenizer native library is already unpacked in {}",
                        decided.dir(),
                        decided.source(),
                        applied);
            }
            return applied;
        }
        if (configured != null && !decided.setProperty()) {
            log.warn(
                    "DJL cache dir {} ignored: the {} environment variable wins ({})",
                    configured,
                    CACHE_DIR,
                    decided.dir());
        }
        if (decided.setProperty()) {
            System.setProperty(CACHE_DIR, decided.dir().toString());
        }
        applied = decided.dir();
        log.info(
                "DJL cache dir {} ({}), offline mode {}", decided.dir(), decided.source(), System.getProperty(OFFLINE));
        return applied;
    }
}
