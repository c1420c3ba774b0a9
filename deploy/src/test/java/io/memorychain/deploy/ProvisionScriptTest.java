package io.memorychain.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.events.Topics;
import io.memorychain.events.chain.ChainKeys;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * deploy/k8s/provision.sh in its dry run (docs/architecture.md §19): it creates every topic of the catalogue with
 * replication factor 3 and min ISR 2 (the co-partitioned ones with one partition count), grants write on the chain to
 * the service's principal alone, and writes a signing key in the format the service reads, whose public key is the one
 * OpenSSL derives from it.
 */
class ProvisionScriptTest {

    private static final Path SCRIPT = Path.of("k8s/provision.sh");
    private static final Pattern CREATE =
            Pattern.compile("--topic (\\S+) --partitions (\\d+) --replication-factor (\\d+)");

    @TempDir
    Path dir;

    private static String run(Map<String, String> env, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("bash", SCRIPT.toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().putAll(env);
        Process p = builder.redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(out).isZero();
        return out;
    }

    @Test
    void createsEveryTopicOfTheCatalogueReplicatedWithMinIsrTwo() throws Exception {
        String out = run(Map.of("DRY_RUN", "1", "SKIP_SECRET", "1", "BOOTSTRAP", "k:9092", "PARTITIONS", "12"));
        Topics topics = Topics.defaults();
        List<String> created = new ArrayList<>();
        for (String line :
                out.lines().filter(l -> l.contains("kafka-topics.sh")).toList()) {
            Matcher m = CREATE.matcher(line);
            assertThat(m.find()).as(line).isTrue();
            created.add(m.group(1));
            assertThat(m.group(3)).isEqualTo("3");
            assertThat(line).contains("--if-not-exists", "--config min.insync.replicas=2");
            if (topics.coPartitioned().contains(m.group(1))) {
                assertThat(m.group(2)).as(m.group(1) + " is co-partitioned").isEqualTo("12");
            }
        }
        assertThat(created).containsAll(topics.dataTopics()).contains(topics.apiKeys());
        assertThat(out)
                .contains("--topic memory.events.v1 --partitions 12 --replication-factor 3 "
                        + "--config min.insync.replicas=2 --config retention.ms=-1 --config retention.bytes=-1");
    }

    @Test
    void onlyTheServiceMayWriteTheChain() throws Exception {
        String out = run(Map.of("DRY_RUN", "1", "SKIP_SECRET", "1", "BOOTSTRAP", "k:9092"));
        List<String> acls = out.lines().filter(l -> l.contains("kafka-acls.sh")).toList();
        assertThat(acls).isNotEmpty();
        for (String acl : acls) {
            boolean coversEvents = acl.contains("--topic memory.events.v1")
                    || acl.contains("--resource-pattern-type prefixed --topic memory.");
            boolean writes = acl.contains("--operation Write") || acl.contains("--operation All");
            if (coversEvents && writes) {
                assertThat(acl).as("a grant to write the chain").contains("--allow-principal User:memory-api");
            }
        }
        assertThat(acls)
                .anySatisfy(a ->
                        assertThat(a).contains("User:memory-worker", "--operation Read", "--topic memory.events.v1"));
    }

    @Test
    void writesASigningKeyTheServiceReadsAndOpenSslAgreesWith() throws Exception {
        Path key = dir.resolve("chain-signing.key");
        run(Map.of(), "key", key.toString());
        ChainKeys keys = ChainKeys.loadOrCreate(key);
        // OpenSSL's own public key of the same private key: PKCS#8 DER prefix of Ed25519 + the raw key
        byte[] raw = HexFormat.of().parseHex(Files.readString(key).trim());
        Path der = dir.resolve("key.der");
        Files.write(der, concat(HexFormat.of().parseHex("302e020100300506032b657004220420"), raw));
        Process p = new ProcessBuilder(
                        "openssl", "pkey", "-inform", "DER", "-in", der.toString(), "-pubout", "-outform", "DER")
                .start();
        byte[] spki = p.getInputStream().readAllBytes();
        assertThat(p.waitFor()).isZero();
        byte[] publicKey = java.util.Arrays.copyOfRange(spki, spki.length - 32, spki.length);
        assertThat(keys.publicKeyBytes()).isEqualTo(publicKey);
        String first = Files.readString(key);
        run(Map.of(), "key", key.toString());
        assertThat(Files.readString(key)).as("an existing key is kept").isEqualTo(first);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
