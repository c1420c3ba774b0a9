package io.memorychain.worker;

import io.memorychain.events.chain.ChainKeys;
import io.memorychain.events.content.MasterKey;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code memory-worker keygen}: the chain signing key that several service instances share (docs/architecture.md §13):
 * every sequencer task signs with it, wherever it runs, so a deployment of N instances provisions one key and mounts it
 * into each (deploy/compose, deploy/k8s). Idempotent: an existing key is kept and named.
 */
final class KeygenCommand {

    static final String USAGE = """
            keygen --out FILE

              Creates the chain signing key (Ed25519, hex, owner read/write only) at FILE, with FILE.pub (the
              public key, for verifiers), unless FILE exists; prints the key id either way. The service reads it
              from <memory.data-dir>/keys/chain-signing.key: mount the same file into every instance. Next to it,
              also content-master.key (AES-256, hex), the master key of the memories' data keys (erasure), unless
              it exists: mount it into every instance too, and name it in MEMORY_CONTENT_KEY_FILE for the jobs.

              --out                the private key file to create (e.g. /data/keys/chain-signing.key)

              Exit status: 0 created or already there, 2 usage error or the file could not be written.""";

    private KeygenCommand() {}

    /** The key file {@code --out} names. */
    static Path parse(List<String> args) throws UsageException {
        Map<String, String> values = CommandLine.parse(args, Set.of("--out"), Set.of());
        return Path.of(CommandLine.required(values, "--out", ""));
    }

    static int run(Path file, PrintStream out) {
        boolean existed = Files.exists(file);
        ChainKeys keys = ChainKeys.loadOrCreate(file);
        out.println((existed ? "kept" : "created") + " chain signing key " + keys.keyId() + " at " + file);
        Path contentFile = file.toAbsolutePath().resolveSibling(MasterKey.FILE_NAME);
        boolean contentExisted = Files.exists(contentFile);
        MasterKey content = MasterKey.loadOrCreate(contentFile);
        out.println(
                (contentExisted ? "kept" : "created") + " content master key " + content.id() + " at " + contentFile);
        return WorkerMain.EXIT_OK;
    }
}
