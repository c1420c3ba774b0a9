package io.memorychain.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.events.chain.ChainKeys;
import io.memorychain.events.chain.SignatureMode;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line without a cluster: argument errors, help, parsing and the registry seam. */
class WorkerMainTest {

    @TempDir
    Path dir;

    private Path keys;
    private final List<RegistrySpec> opened = new ArrayList<>();
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @BeforeEach
    void writeKeys() {
        ChainKeys.loadOrCreate(dir.resolve("chain.key"));
        keys = dir.resolve("chain.key.pub");
    }

    private int run(String... args) {
        RegistryFactory refuse = spec -> {
            opened.add(spec);
            throw new UnsupportedOperationException("registry client not available: test");
        };
        return new WorkerMain(refuse)
                .run(
                        args,
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    private void assertUsageError(int status, String message) {
        assertThat(status).isEqualTo(2);
        assertThat(err()).contains("error: " + message);
        assertThat(err()).doesNotContain("Exception").doesNotContain("\tat ");
        assertThat(out()).isEmpty();
        assertThat(opened).as("no registry is opened on a usage error").isEmpty();
    }

    @Test
    void keygenCreatesOneSharedKeyThenKeepsIt() throws Exception {
        Path file = dir.resolve("keys").resolve("chain-signing.key");
        assertThat(run("keygen", "--out", file.toString())).isZero();
        String keyId = ChainKeys.loadOrCreate(file).keyId();
        assertThat(out()).contains("created chain signing key " + keyId);
        assertThat(Files.readString(dir.resolve("keys").resolve("chain-signing.key.pub")))
                .startsWith(keyId + " ");
        String key = Files.readString(file);
        out.reset();
        assertThat(run("keygen", "--out", file.toString())).isZero();
        assertThat(out()).contains("kept chain signing key " + keyId);
        assertThat(Files.readString(file))
                .as("a second run never replaces the key")
                .isEqualTo(key);
        String contentKeyId = io.memorychain.events.content.MasterKey.loadOrCreate(
                        dir.resolve("keys").resolve("content-master.key"))
                .id();
        assertThat(out()).contains("kept content master key " + contentKeyId);
    }

    @Test
    void keygenWithoutOutExitsWithTwo() {
        assertUsageError(run("keygen"), "--out");
    }

    @Test
    void noCommandPrintsUsageAndExitsWithTwo() {
        assertUsageError(run(), "no command");
        assertThat(err()).contains("usage: memory-worker").contains("verify --bootstrap-servers");
    }

    @Test
    void unknownCommandExitsWithTwo() {
        assertUsageError(run("purge"), "unknown command 'purge'");
    }

    @Test
    void helpPrintsUsageOnStdoutAndExitsWithZero() {
        assertThat(run("--help")).isZero();
        assertThat(out()).contains("verify --bootstrap-servers HOST:PORT --keys FILE.pub");
        assertThat(run("verify", "--help")).isZero();
        assertThat(out()).contains("--checkpoint-every");
    }

    @Test
    void exportChainHasItsHelpAndUsageErrors() {
        assertThat(run("export-chain", "--help")).isZero();
        assertThat(out())
                .contains("export-chain --bootstrap-servers HOST:PORT --space S [--out FILE]")
                .contains("node verifier/verify.mjs");
    }

    @Test
    void exportChainWithoutASpaceExitsWithTwo() {
        assertUsageError(run("export-chain", "--bootstrap-servers", "b:9092"), "--space is required");
    }

    @Test
    void exportChainRefusesAnUnreadableKeyFile() {
        assertUsageError(
                run("export-chain", "--bootstrap-servers", "b:9092", "--space", "s", "--keys", "/no/such/file.pub"),
                "--keys: cannot read /no/such/file.pub");
    }

    @Test
    void lifecycleHasItsHelpAndUsageErrors() {
        assertThat(run("lifecycle", "--help")).isZero();
        assertThat(out()).contains("lifecycle --bootstrap-servers HOST:PORT").contains("--ttl");
        out.reset();
        assertUsageError(run("lifecycle", "--check-interval", "PT1M"), "--bootstrap-servers is required");
        assertThat(err()).contains("(memory-worker lifecycle --help for details)");
    }

    @Test
    void refineHasItsHelpAndUsageErrors() {
        assertThat(run("refine", "--help")).isZero();
        assertThat(out()).contains("refine --bootstrap-servers HOST:PORT").contains("--threshold-tokens");
        out.reset();
        assertUsageError(run("refine", "--schedule", "P1D"), "--bootstrap-servers is required");
        assertThat(err()).contains("(memory-worker refine --help for details)");
    }

    @Test
    void verifyWithoutBootstrapServersExitsWithTwo() {
        assertUsageError(run("verify", "--keys", keys.toString(), "--all"), "--bootstrap-servers is required");
    }

    @Test
    void verifyWithoutKeysExitsWithTwo() {
        assertUsageError(run("verify", "--bootstrap-servers", "localhost:9092", "--all"), "--keys is required");
    }

    @Test
    void unreadableKeysFileExitsWithTwo() {
        assertUsageError(
                run(
                        "verify",
                        "--bootstrap-servers",
                        "localhost:9092",
                        "--keys",
                        dir.resolve("missing.pub").toString(),
                        "--all"),
                "--keys: cannot read");
    }

    @Test
    void keysFileWithoutKeysExitsWithTwo() throws Exception {
        Path empty = Files.writeString(dir.resolve("empty.pub"), "# no keys yet\n");

        assertUsageError(
                run("verify", "--bootstrap-servers", "localhost:9092", "--keys", empty.toString(), "--all"),
                "--keys: no public key in");
    }

    @Test
    void malformedKeysFileExitsWithTwo() throws Exception {
        Path garbage = Files.writeString(dir.resolve("garbage.pub"), "not a key\n");

        assertUsageError(
                run("verify", "--bootstrap-servers", "localhost:9092", "--keys", garbage.toString(), "--all"),
                "--keys: " + garbage + " is not a public key file");
    }

    @Test
    void spaceAndAllTogetherOrNeitherExitWithTwo() {
        assertUsageError(
                run("verify", "--bootstrap-servers", "b:9092", "--keys", keys.toString(), "--all", "--space", "s"),
                "give exactly one of --space S and --all");
        err.reset();
        assertUsageError(
                run("verify", "--bootstrap-servers", "b:9092", "--keys", keys.toString()),
                "give exactly one of --space S and --all");
    }

    @Test
    void unknownSignatureModeExitsWithTwo() {
        assertUsageError(
                run(
                        "verify",
                        "--bootstrap-servers",
                        "b:9092",
                        "--keys",
                        keys.toString(),
                        "--all",
                        "--signatures",
                        "some"),
                "--signatures must be 'all' or 'checkpoints', not 'some'");
    }

    @Test
    void checkpointIntervalMustBePositiveAndNeedsCheckpointMode() {
        assertUsageError(
                run(
                        "verify",
                        "--bootstrap-servers",
                        "b:9092",
                        "--keys",
                        keys.toString(),
                        "--all",
                        "--signatures",
                        "checkpoints",
                        "--checkpoint-every",
                        "0"),
                "--checkpoint-every must be a positive");
        err.reset();
        assertUsageError(
                run(
                        "verify",
                        "--bootstrap-servers",
                        "b:9092",
                        "--keys",
                        keys.toString(),
                        "--all",
                        "--checkpoint-every",
                        "100"),
                "--checkpoint-every needs --signatures checkpoints");
    }

    @Test
    void bothRegistryOptionsExitWithTwo() {
        assertUsageError(
                run(
                        "verify",
                        "--bootstrap-servers",
                        "b:9092",
                        "--keys",
                        keys.toString(),
                        "--all",
                        "--registry-url",
                        "http://r:8081",
                        "--registry-topic",
                        "_schemas"),
                "give at most one of --registry-url and --registry-topic");
    }

    @Test
    void unknownOptionRepeatedOptionAndMissingValueExitWithTwo() {
        assertUsageError(run("verify", "--bootstrap-servers", "b:9092", "--colour"), "unknown option '--colour'");
        err.reset();
        assertUsageError(run("verify", "--space", "a", "--space", "b"), "--space given twice");
        err.reset();
        assertUsageError(run("verify", "--bootstrap-servers", "--all"), "--bootstrap-servers needs a value");
    }

    @Test
    void unavailableRegistryClientExitsWithTwoAndAClearMessage() {
        int status = run(
                "verify",
                "--bootstrap-servers",
                "b:9092",
                "--keys",
                keys.toString(),
                "--space",
                "s",
                "--registry-url",
                "http://r:8081");

        assertThat(status).isEqualTo(2);
        assertThat(err()).contains("error: registry client not available").doesNotContain("\tat ");
        assertThat(opened).containsExactly(new RegistrySpec("http://r:8081", null, "b:9092"));
    }

    @Test
    void parsesCheckpointModeWithItsDefaultIntervalAndTheDefaultRegistryTopicOfThePrefix() throws Exception {
        VerifyCommand.Options options = VerifyCommand.parse(List.of(
                "--bootstrap-servers=b:9092",
                "--keys",
                keys.toString(),
                "--space",
                "alice",
                "--topic-prefix",
                "test.",
                "--signatures",
                "checkpoints"));

        assertThat(options.space()).isEqualTo("alice");
        assertThat(options.all()).isFalse();
        assertThat(options.signatures()).isEqualTo(SignatureMode.checkpoints(1000));
        assertThat(options.topics().events()).isEqualTo("test.memory.events.v1");
        assertThat(options.registry()).isEqualTo(new RegistrySpec(null, "test._memory_schemas", "b:9092"));
    }

    @Test
    void parsesAnExplicitCheckpointIntervalAndRegistryTopic() throws Exception {
        VerifyCommand.Options options = VerifyCommand.parse(List.of(
                "--bootstrap-servers",
                "b:9092",
                "--keys",
                keys.toString(),
                "--all",
                "--signatures",
                "checkpoints",
                "--checkpoint-every",
                "250",
                "--registry-topic",
                "my_schemas"));

        assertThat(options.all()).isTrue();
        assertThat(options.signatures().every()).isEqualTo(250);
        assertThat(options.registry().topic()).isEqualTo("my_schemas");
        assertThat(options.topics().events()).isEqualTo("memory.events.v1");
    }
}
