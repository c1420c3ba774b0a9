package io.memorychain.api.auth;

import io.memorychain.api.config.MemoryConfig;
import io.micronaut.context.event.ApplicationEventListener;
import io.micronaut.context.event.StartupEvent;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * At first start (no key at all), issues an admin key, an agent key and a user key ({@code user:manual}, for a person's
 * hand edits), prints them and writes them to {@code <data-dir>/keys/api-keys.env} (readable by the owner only), so a
 * new user can start at once: {@code source data/keys/api-keys.env}.
 */
@Singleton
class KeyBootstrap implements ApplicationEventListener<StartupEvent> {

    public static final String FILE = "api-keys.env";
    private static final Logger log = LoggerFactory.getLogger(KeyBootstrap.class);

    private final ApiKeys keys;
    private final AuthConfig config;
    private final Path file;

    public KeyBootstrap(ApiKeys keys, AuthConfig config, MemoryConfig memory) {
        this.keys = keys;
        this.config = config;
        this.file = memory.getDataDir()
                .resolve("keys")
                .resolve(FILE)
                .toAbsolutePath()
                .normalize();
    }

    @Override
    public void onApplicationEvent(StartupEvent event) {
        if (!config.isBootstrap() || !keys.none()) {
            return;
        }
        ApiKeys.Issued admin =
                keys.issue(new Principal("admin", Role.ADMIN, "admin", List.of(Principal.ALL_SPACES)), "bootstrap");
        String agentId = config.getBootstrapAgentId();
        ApiKeys.Issued agent =
                keys.issue(new Principal(agentId, Role.AGENT, agentId, config.getBootstrapSpaces()), "bootstrap");
        ApiKeys.Issued user =
                keys.issue(new Principal("manual", Role.USER, "manual", config.getBootstrapSpaces()), "bootstrap");
        String spaces = String.join(",", config.getBootstrapSpaces());
        write("""
                # Memory Chain API keys issued at first start. Keep them secret: send as 'Authorization: Bearer <key>'.
                # admin: governance (keys, chain verification, protection, refinement, proposals), no content reads
                MEMORY_ADMIN_KEY=%s
                # agent:%s on spaces %s
                MEMORY_AGENT_KEY=%s
                # user:manual on spaces %s: a person editing by hand (e.g. the Markdown files)
                MEMORY_USER_KEY=%s
                """.formatted(admin.key(), agentId, spaces, agent.key(), spaces, user.key()));
        log.info(
                "First start: issued API keys (also in {}, readable by you only)\n  admin:{} {}\n  agent:{} on {}: {}\n"
                        + "  user:manual on {}: {}",
                file,
                "admin",
                admin.key(),
                agentId,
                spaces,
                agent.key(),
                spaces,
                user.key());
    }

    private void write(String text) {
        try {
            Files.createDirectories(file.getParent());
            if (Files.exists(file)) { // keys of a wiped cluster or another topic prefix: they authenticate nothing here
                Path old = file.resolveSibling(FILE + ".old-" + System.currentTimeMillis());
                Files.move(file, old);
                log.warn(
                        "No API key exists but {} did: its keys belong to another cluster or topic prefix; moved it to {}",
                        file,
                        old);
            }
            try {
                Files.createFile(
                        file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            } catch (UnsupportedOperationException e) { // not a POSIX file system
                Files.createFile(file);
            }
            Files.writeString(file, text, StandardCharsets.UTF_8, StandardOpenOption.TRUNCATE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the first API keys to " + file, e);
        }
    }
}
