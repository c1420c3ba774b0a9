package io.memorychain.worker;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.memorychain.avro.Actor;
import io.memorychain.avro.ActorType;
import io.memorychain.avro.Confidence;
import io.memorychain.avro.CreateMemory;
import io.memorychain.avro.MemoryFlag;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.avro.MemoryRequest;
import io.memorychain.avro.ProposalDecision;
import io.memorychain.avro.RefinementTrigger;
import io.memorychain.avro.Tier;
import io.memorychain.domain.decide.WriteSettings;
import io.memorychain.events.Requests;
import io.memorychain.events.Topics;
import io.memorychain.events.chain.Canonical;
import io.memorychain.events.chain.ChainHead;
import io.memorychain.events.chain.ChainKeys;
import io.memorychain.events.chain.Checkpoint;
import io.memorychain.events.chain.KafkaChainReader;
import io.memorychain.events.chain.KeyRing;
import io.memorychain.events.chain.PublicKeyInfo;
import io.memorychain.events.chain.SignatureMode;
import io.memorychain.events.chain.VerificationResult;
import io.memorychain.events.content.ContentCipher;
import io.memorychain.events.content.MasterKey;
import io.memorychain.events.publish.MemoryPublisher;
import io.memorychain.events.registry.KafkaTopicSchemaRegistry;
import io.memorychain.events.registry.SchemaRegistry;
import io.memorychain.events.testing.SharedKafka;
import io.memorychain.projector.MemoryChainRuntime;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Verification anywhere (docs/chain-format.md): a real chain with varied payloads, written by the real sequencer on a
 * real broker with the memories' texts encrypted (the service's default) and one memory erased (its data key
 * destroyed), exported by {@code export-chain} and checked by the second-language verifier ({@code node
 * verifier/verify.mjs}) with nothing but the export and the public key file; a forged content byte is named by its seq;
 * and the verifier's own tests ({@code node --test verifier/}) run on this export. Without {@code node} on the PATH the
 * tests abort (reported as skipped, never as passed).
 */
@Tag("integration")
@ExtendWith(SharedKafka.class)
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ChainExportIT {

    private static final String SPACE = "verify.demo";
    private static final Actor AGENT = Requests.actor(ActorType.AGENT, "assistant");
    private static final Actor ADMIN = Requests.actor(ActorType.ADMIN, "ops");
    private static final Actor USER = Requests.actor(ActorType.USER, "manual");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ERASED_TEXT = "Ana's passport number is X1234567";

    @TempDir
    static Path dir;

    private static SchemaRegistry registry;
    private static MemoryChainRuntime runtime;
    private static String prefix;
    private static Path publicKeys;
    private static ChainKeys keys;
    private static Topics topics;
    private static Path export;
    private static VerificationResult javaVerdict;
    /** The seq of an update event whose content the forgery test changes. */
    private static long updateSeq;

    private static String updatedContent;

    @BeforeAll
    static void writeAChainAndExportIt() throws Exception {
        prefix = SharedKafka.uniquePrefix();
        topics = Topics.withPrefix(prefix);
        keys = ChainKeys.loadOrCreate(dir.resolve("keys").resolve("chain-signing.key"));
        publicKeys = dir.resolve("keys").resolve("chain-signing.key.pub");
        registry = new KafkaTopicSchemaRegistry(SharedKafka.bootstrapServers(), topics.schemas(), (short) 1);
        runtime = MemoryChainRuntime.start(
                new MemoryChainRuntime.Settings(
                        SharedKafka.bootstrapServers(),
                        topics,
                        dir.resolve("runtime"),
                        prefix + "app",
                        2,
                        (short) 1,
                        WriteSettings.defaults()),
                registry,
                keys,
                null,
                null,
                Duration.ofSeconds(90),
                MasterKey.loadOrCreate(dir.resolve("keys").resolve(MasterKey.FILE_NAME)));
        try (MemoryPublisher publisher = new MemoryPublisher(SharedKafka.bootstrapServers(), topics, registry)) {
            writeVariedChain(publisher);
        }
        javaVerdict = reader().verifySpace(SPACE);
        assertThat(javaVerdict.ok()).as("%s", javaVerdict).isTrue();

        export = fixtures().resolve("chain-export.jsonl");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        // the command opens (and closes) its own registry on the registry topic, as it does when run by an operator
        int status = new WorkerMain(
                        spec -> new KafkaTopicSchemaRegistry(spec.bootstrapServers(), spec.topic(), (short) 1))
                .run(
                        new String[] {
                            "export-chain",
                            "--bootstrap-servers",
                            SharedKafka.bootstrapServers(),
                            "--topic-prefix",
                            prefix,
                            "--space",
                            SPACE,
                            "--keys",
                            publicKeys.toString(),
                            "--out",
                            export.toString()
                        },
                        System.out,
                        new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(status).as(err.toString(StandardCharsets.UTF_8)).isZero();
        assertThat(err.toString(StandardCharsets.UTF_8))
                .contains("export-chain: " + javaVerdict.events() + " / " + javaVerdict.events() + " record(s)")
                .contains("exported " + javaVerdict.events() + " event(s) of " + SPACE + ", head seq "
                        + javaVerdict.events());
    }

    /** Every kind of change the API offers, so the verifier meets every branch of the payload union it can. */
    private static void writeVariedChain(MemoryPublisher publisher) throws Exception {
        String tea = accept(
                        publisher,
                        Requests.create(
                                SPACE,
                                AGENT,
                                CreateMemory.newBuilder()
                                        .setContent(
                                                "Ana drinks green tea; she dislikes coffee \u2615 (caf\u00e9 au lait is fine)")
                                        .setCategory("preferences")
                                        .setTags(List.of("drinks", "ana"))
                                        .setImportance(4)
                                        .setConfidence(Confidence.HIGH)
                                        .setTier(Tier.CORE)
                                        .build()))
                .getMemoryId();
        String lisbon = accept(
                        publisher,
                        Requests.create(
                                SPACE,
                                AGENT,
                                CreateMemory.newBuilder()
                                        .setContent("Ana visited Lisbon in 2019")
                                        .setKind(MemoryKind.EPISODIC)
                                        .build()))
                .getMemoryId();
        String editor = accept(publisher, Requests.create(SPACE, USER, "Ana prefers dark mode in every editor"))
                .getMemoryId();
        MemoryOutcome update = accept(
                publisher,
                Requests.updateContent(SPACE, AGENT, editor, "Ana prefers dark mode in every editor and terminal"));
        updateSeq = update.getSeq();
        updatedContent = "Ana prefers dark mode in every editor and terminal";
        accept(publisher, Requests.flag(SPACE, AGENT, tea, MemoryFlag.PINNED, true));
        accept(publisher, Requests.link(SPACE, AGENT, tea, lisbon, "related_to", 0.625));
        accept(publisher, Requests.unlink(SPACE, AGENT, tea, lisbon));
        accept(publisher, Requests.delete(SPACE, AGENT, lisbon));
        accept(publisher, Requests.restore(SPACE, USER, lisbon));
        accept(publisher, Requests.block(SPACE, AGENT, "persona", "I am a careful planner"));
        accept(publisher, Requests.block(SPACE, AGENT, "persona", "I am a careful, friendly planner"));
        String dup = accept(publisher, Requests.create(SPACE, AGENT, "Ana likes green tea"))
                .getMemoryId();
        accept(
                publisher,
                Requests.consolidate(
                        SPACE, AGENT, List.of(tea, dup), "Ana drinks green tea, never coffee", "same fact"));
        String proposal = accept(
                        publisher,
                        Requests.propose(
                                SPACE,
                                Requests.actor(ActorType.SUBAGENT, "researcher"),
                                "Ana reads papers rather than blog posts"))
                .getMemoryId();
        accept(publisher, Requests.resolve(SPACE, AGENT, proposal, ProposalDecision.COMMIT, "useful"));
        MemoryOutcome started =
                accept(publisher, Requests.startRefinement(SPACE, ADMIN, RefinementTrigger.ADMIN, null));
        // the session is named after its first event, the DuplicatesRemoved just before RefinementStarted
        String session = io.memorychain.domain.refinement.SessionIds.of(SPACE, started.getSeq() - 1);
        accept(
                publisher,
                Requests.flag(SPACE, ADMIN, editor, MemoryFlag.CONSTITUTIONAL, true)
                        .setSessionId(session));
        accept(publisher, Requests.completeRefinement(SPACE, ADMIN, session, "Compressed nothing; protected 1"));
        // the data key of this memory is destroyed: its texts stay on the chain as ciphertext nobody can read, and the
        // chain must still verify without any key
        String erased =
                accept(publisher, Requests.create(SPACE, AGENT, ERASED_TEXT)).getMemoryId();
        accept(publisher, Requests.erase(SPACE, USER, erased, "the user asked for it to be forgotten"));
    }

    private static MemoryOutcome accept(MemoryPublisher publisher, MemoryRequest.Builder request) throws Exception {
        MemoryOutcome outcome = publisher.publish(request.build()).get(60, TimeUnit.SECONDS);
        assertThat(outcome.getAccepted()).as("%s", outcome).isTrue();
        return outcome;
    }

    @AfterAll
    static void stop() {
        if (runtime != null) {
            runtime.close();
        }
        if (registry != null) {
            registry.close();
        }
    }

    private static Path fixtures() throws IOException {
        return Files.createDirectories(Path.of(System.getProperty("verifier.fixtures", "target/verifier")));
    }

    private static Path verifierDir() {
        Path verifier = Path.of(System.getProperty("verifier.dir", "../verifier"));
        assertThat(verifier.resolve("verify.mjs")).exists();
        return verifier;
    }

    private record Run(int status, String out, String err) {}

    /** Runs node with the arguments; aborts the test when there is no node on the PATH. */
    private static Run node(Map<String, String> env, String... args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add("node");
        command.addAll(List.of(args));
        Path stdout = Files.createTempFile(dir, "node", ".out");
        Path stderr = Files.createTempFile(dir, "node", ".err");
        ProcessBuilder builder =
                new ProcessBuilder(command).redirectOutput(stdout.toFile()).redirectError(stderr.toFile());
        builder.environment().putAll(env);
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            Assumptions.abort("node is not on the PATH (" + e.getMessage() + "): the second-language verifier needs "
                    + "Node.js >= 18");
            throw e;
        }
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("node did not finish: " + command);
        }
        return new Run(process.exitValue(), Files.readString(stdout), Files.readString(stderr));
    }

    @Test
    void theNodeVerifierAcceptsTheRealChainWithTheSameHeadAsTheJavaVerifier() throws Exception {
        Run run = node(
                Map.of(),
                verifierDir().resolve("verify.mjs").toString(),
                export.toString(),
                "--keys",
                publicKeys.toString());

        assertThat(run.status()).as(run.out() + run.err()).isZero();
        long n = javaVerdict.events();
        String javaHead = javaVerdict.message().substring(javaVerdict.message().lastIndexOf(' ') + 1);
        assertThat(run.out().strip()).isEqualTo("OK " + SPACE + " " + n + " events head " + n + " " + javaHead);
        assertThat(n).as("every kind of change made it onto the chain").isGreaterThanOrEqualTo(18);
    }

    @Test
    void theExportHoldsTheTextsOnlyAsCiphertext() throws Exception {
        StringBuilder all = new StringBuilder();
        for (String line :
                Files.readAllLines(export).subList(1, Files.readAllLines(export).size())) {
            byte[] value =
                    Base64.getDecoder().decode(JSON.readTree(line).get("value").asText());
            all.append(new String(value, StandardCharsets.UTF_8)).append('\n');
        }

        assertThat(all.toString())
                .contains(ContentCipher.PREFIX)
                .doesNotContain(updatedContent)
                .doesNotContain(ERASED_TEXT)
                .doesNotContain("passport");
    }

    @Test
    void theNodeVerifierNamesTheSeqOfAForgedContentByte() throws Exception {
        List<String> lines = new ArrayList<>(Files.readAllLines(export));
        int index = lineOfSeq(lines, updateSeq);
        ObjectNode line = (ObjectNode) JSON.readTree(lines.get(index));
        byte[] value = Base64.getDecoder().decode(line.get("value").asText());
        byte[] prefix = ContentCipher.PREFIX.getBytes(StandardCharsets.UTF_8);
        int at = indexOf(value, prefix);
        assertThat(at)
                .as("the updated content's ciphertext is in the record's bytes")
                .isPositive();
        int forgedAt = at + prefix.length + 4; // a base64 character of the ciphertext: same length, still valid Avro
        value[forgedAt] = (byte) (value[forgedAt] == 'A' ? 'B' : 'A');
        line.put("value", Base64.getEncoder().encodeToString(value));
        lines.set(index, JSON.writeValueAsString(line));
        Path forged = dir.resolve("forged.jsonl");
        Files.write(forged, lines);

        Run run = node(
                Map.of(),
                verifierDir().resolve("verify.mjs").toString(),
                forged.toString(),
                "--keys",
                publicKeys.toString());

        assertThat(run.status()).as(run.out() + run.err()).isEqualTo(1);
        assertThat(run.out()).startsWith("BROKEN " + SPACE + " seq=" + updateSeq + " BAD_HASH ");
    }

    @Test
    void theVerifiersOwnTestsPassOnThisExport() throws Exception {
        Run run = node(
                Map.of("MEMORYCHAIN_EXPORT", export.toAbsolutePath().toString()),
                "--test",
                verifierDir().toString());

        assertThat(run.status()).as(run.out() + run.err()).isZero();
        assertThat(run.out())
                .contains("# fail 0")
                .contains("# skipped 0")
                .doesNotContain("# SKIP")
                .doesNotContain("# pass 0");
    }

    @Test
    void twoReadersSignTheSameCheckpointWhichTheNodeVerifierConfirmsAndAForgedHeadIsRefused() throws Exception {
        ChainHead first = reader().headOf(SPACE);
        ChainHead second = reader().headOf(SPACE);
        assertThat(first.result().ok()).as("%s", first.result()).isTrue();
        Instant now = Instant.now();
        Checkpoint a = Checkpoint.sign(keys, SPACE, first.seq(), first.hash(), now);
        Checkpoint b = Checkpoint.sign(keys, SPACE, second.seq(), second.hash(), now.plusSeconds(5));
        assertThat(b).usingRecursiveComparison().ignoringFields("signedAt").isEqualTo(a);
        assertThat(a.seq()).isEqualTo(javaVerdict.events());
        Path keyFile = dir.resolve("public-keys.json");
        PublicKeyInfo.write(keyFile, List.of(PublicKeyInfo.of(keys, null, true)));

        Run confirmed = node(
                Map.of(),
                verifierDir().resolve("verify.mjs").toString(),
                export.toString(),
                "--keys",
                keyFile.toString(),
                "--checkpoint",
                checkpointFile("good", a).toString());
        assertThat(confirmed.status()).as(confirmed.out() + confirmed.err()).isZero();
        assertThat(confirmed.out()).contains("CHECKPOINT OK " + SPACE + " seq " + a.seq() + " " + a.hash());

        // the service's key over a head that is not the chain's (as if it had been fooled into signing it)
        Checkpoint forgedHead = Checkpoint.sign(keys, SPACE, a.seq(), Canonical.sha256(new byte[] {1}), now);
        Run refused = node(
                Map.of(),
                verifierDir().resolve("verify.mjs").toString(),
                export.toString(),
                "--keys",
                keyFile.toString(),
                "--checkpoint",
                checkpointFile("forged-head", forgedHead).toString());
        assertThat(refused.status()).isEqualTo(1);
        assertThat(refused.out())
                .contains("CHECKPOINT BAD " + SPACE + " seq " + a.seq())
                .contains("the export's hash at seq " + a.seq() + " is " + a.hash());

        // the real head with its hash changed: the signature no longer covers it
        Checkpoint altered = new Checkpoint(SPACE, a.seq(), forgedHead.hash(), a.keyId(), a.signature(), now);
        Run unsigned = node(
                Map.of(),
                verifierDir().resolve("verify.mjs").toString(),
                export.toString(),
                "--keys",
                keyFile.toString(),
                "--checkpoint",
                checkpointFile("altered", altered).toString());
        assertThat(unsigned.status()).isEqualTo(1);
        assertThat(unsigned.out()).contains("checkpoint signature does not verify");
    }

    private static KafkaChainReader reader() {
        return new KafkaChainReader(
                Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedKafka.bootstrapServers()),
                topics.events(),
                registry,
                KeyRing.read(publicKeys),
                SignatureMode.ALL);
    }

    /** The checkpoint as GET /v1/spaces/{space}/chain/checkpoint answers it. */
    private static Path checkpointFile(String name, Checkpoint c) throws IOException {
        ObjectNode json = JSON.createObjectNode()
                .put("space", c.space())
                .put("seq", c.seq())
                .put("hash", c.hash())
                .put("key_id", c.keyId())
                .put("signature", c.signature())
                .put("signed_at", c.signedAt().toString());
        return Files.writeString(dir.resolve(name + ".checkpoint.json"), JSON.writeValueAsString(json));
    }

    private static int lineOfSeq(List<String> lines, long seq) throws IOException {
        for (int i = 1; i < lines.size(); i++) {
            JsonNode node = JSON.readTree(lines.get(i));
            if (node.path("seq").asLong() == seq) {
                return i;
            }
        }
        throw new AssertionError("no line for seq " + seq);
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
