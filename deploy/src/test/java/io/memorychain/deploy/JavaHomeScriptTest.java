package io.memorychain.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * .mvn/java-home.sh, which ./mvnw and deploy/local/run.sh source to run on a Java 21+: JAVA_HOME when it is 21+, else
 * the newest 21+ JDK of the JVM directory, and a clear failure when there is none. The JDKs here are directories with a
 * {@code release} file and an executable {@code bin/java}, as the script reads them.
 */
class JavaHomeScriptTest {

    private static final Path SCRIPT =
            Path.of("../.mvn/java-home.sh").toAbsolutePath().normalize();

    @TempDir
    Path jvms;

    private Path jdk(String name, String version) throws IOException {
        Path home = jvms.resolve(name);
        Files.createDirectories(home.resolve("bin"));
        Files.writeString(home.resolve("release"), "IMPLEMENTOR=\"test\"\nJAVA_VERSION=\"" + version + "\"\n");
        Path java = Files.writeString(home.resolve("bin/java"), "#!/bin/sh\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        return home;
    }

    /** Runs {@code memory_java_home} with only {@code env} and a PATH without java; its exit code and output. */
    private static Result pick(Map<String, String> env) throws IOException, InterruptedException {
        ProcessBuilder builder =
                new ProcessBuilder("bash", "-c", "source \"$1\"; memory_java_home", "java-home", SCRIPT.toString());
        builder.environment().clear();
        builder.environment().put("PATH", "/nonexistent");
        builder.environment().putAll(env);
        Process p = builder.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        return new Result(p.waitFor(), out, err);
    }

    private record Result(int exit, String out, String err) {}

    @Test
    void takesJavaHomeWhenItIsJava21OrLater() throws Exception {
        Path home = jdk("temurin-21", "21.0.5");
        jdk("temurin-25", "25.0.3");
        Result r = pick(Map.of("JAVA_HOME", home.toString(), "MEMORY_JVM_DIR", jvms.toString()));
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).isEqualTo(home.toString());
    }

    @Test
    void passesOverAnOlderJavaHomeForTheNewestJdkOfTheJvmDirectory() throws Exception {
        Path old = jdk("java-17-openjdk-amd64", "17.0.15");
        jdk("java-1.8.0-openjdk", "1.8.0_412");
        jdk("temurin-21-jdk-amd64", "21.0.5");
        Path newest = jdk("temurin-25-jdk-amd64", "25.0.3");
        Result r = pick(Map.of("JAVA_HOME", old.toString(), "MEMORY_JVM_DIR", jvms.toString()));
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).isEqualTo(newest.toString());
    }

    @Test
    void failsWithTheReasonWhenNoJava21IsInstalled() throws Exception {
        Path old = jdk("java-17-openjdk-amd64", "17.0.15");
        Result r = pick(Map.of("JAVA_HOME", old.toString(), "MEMORY_JVM_DIR", jvms.toString()));
        assertThat(r.exit()).isNotZero();
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).contains("needs Java 21 or later", "set JAVA_HOME", old.toString());
    }
}
