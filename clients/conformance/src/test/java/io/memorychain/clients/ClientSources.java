package io.memorychain.clients;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a client's sources declare, read as text: its public method names, its exemption list (operation -> reason) and
 * the error codes it has a class for. Each client keeps these in fixed places (README "Parity").
 */
record ClientSources(
        String name,
        Set<String> methods,
        Map<String, String> exemptions,
        Set<String> errorCodes,
        Function<String, String> methodName) {

    /** The repository's root: the module runs with clients/conformance as its working directory. */
    static Path repoRoot() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.isDirectory(dir.resolve("clients").resolve("python"))) {
            dir = dir.getParent();
        }
        if (dir == null) {
            throw new IllegalStateException(
                    "no clients/python above " + Path.of("").toAbsolutePath());
        }
        return dir;
    }

    static ClientSources python(Path root) {
        Path pkg = root.resolve("clients/python/memorychain");
        return new ClientSources(
                "python",
                matches(read(pkg.resolve("client.py")), Pattern.compile("(?m)^    def ([a-z]\\w*)\\(")),
                pairs(block(read(pkg.resolve("operations.py")), "EXEMPTIONS")),
                matches(block(read(pkg.resolve("errors.py")), "ERRORS"), Pattern.compile("\"([A-Z_]+)\":")),
                op -> op.toLowerCase(Locale.ROOT));
    }

    static ClientSources typescript(Path root) {
        Path src = root.resolve("clients/typescript/src");
        return new ClientSources(
                "typescript",
                matches(read(src.resolve("client.ts")), Pattern.compile("(?m)^  (?:async \\*?)?([a-z]\\w*)\\(")),
                pairs(block(read(src.resolve("operations.ts")), "EXEMPTIONS")),
                matches(block(read(src.resolve("errors.ts")), "ERRORS"), Pattern.compile("(?m)^  ([A-Z_]+):")),
                ClientSources::camel);
    }

    /**
     * The Java client (memory-client): its public methods (its own and those of GovernanceCalls), the error codes its
     * exception factory maps, and its exemptions and explanations for operations without a method, as its own parity
     * test lists them.
     */
    static ClientSources java(Path root) {
        Path main = root.resolve("memory-client/src/main/java/io/memorychain/client");
        Map<String, String> exempt = new LinkedHashMap<>();
        Matcher m = Pattern.compile("Operation\\.([A-Z_]+),\\s*\"((?:[^\"\\\\]|\\\\.)*)\"")
                .matcher(read(
                        root.resolve("memory-client/src/test/java/io/memorychain/client/OperationParityTest.java")));
        while (m.find()) {
            exempt.put(m.group(1), m.group(2));
        }
        return new ClientSources(
                "java",
                matches(
                        // the client's public methods, with those it inherits from GovernanceCalls
                        read(main.resolve("MemoryChainClient.java")) + read(main.resolve("GovernanceCalls.java")),
                        Pattern.compile("(?m)^    public (?!static |record |final |class )[^=;(]+ ([a-z]\\w*)\\(")),
                exempt,
                matches(read(main.resolve("MemoryChainException.java")), Pattern.compile("case \"([A-Z_]+)\"")),
                ClientSources::camel);
    }

    /** CREATE_MEMORY -> createMemory. */
    static String camel(String operation) {
        StringBuilder out = new StringBuilder();
        for (String part : operation.toLowerCase(Locale.ROOT).split("_")) {
            out.append(out.isEmpty() ? part : Character.toUpperCase(part.charAt(0)) + part.substring(1));
        }
        return out.toString();
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The text from the line declaring {@code name} to the first line that closes it ({@code }}). */
    private static String block(String text, String name) {
        Matcher start = Pattern.compile("(?m)^(?:export )?(?:const )?" + name + "\\b.*$")
                .matcher(text);
        if (!start.find()) {
            throw new IllegalStateException("no " + name + " declared");
        }
        int end = text.indexOf("\n}", start.end());
        return text.substring(start.end(), end < 0 ? text.length() : end);
    }

    private static Set<String> matches(String text, Pattern pattern) {
        Set<String> out = new TreeSet<>();
        Matcher m = pattern.matcher(text);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    private static Map<String, String> pairs(String text) {
        Map<String, String> out = new LinkedHashMap<>();
        Matcher m =
                Pattern.compile("\"([A-Z_]+)\":\\s*\"((?:[^\"\\\\]|\\\\.)*)\"").matcher(text);
        while (m.find()) {
            out.put(m.group(1), m.group(2));
        }
        return out;
    }
}
