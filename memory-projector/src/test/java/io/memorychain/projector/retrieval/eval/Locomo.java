package io.memorychain.projector.retrieval.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Reads conversations of the public LoCoMo benchmark (snap-research/locomo, licence CC BY-NC 4.0) from its release zip,
 * {@code locomo10.zip}, which is never committed nor anything derived from it. Only the conversations of
 * {@link #ALLOWED} are ever opened, each by its exact entry name: the other five are held out as an independent check
 * and this class refuses them.
 */
public final class Locomo {

    /** The only conversations this code may open: TUNE = 26 + 30, REPORT = 41 + 42 + 43. */
    public static final Set<Integer> ALLOWED = Set.of(26, 30, 41, 42, 43);

    public static final List<Integer> TUNE = List.of(26, 30);
    public static final List<Integer> REPORT = List.of(41, 42, 43);
    public static final String PROPERTY = "locomo.zip";
    public static final String ENV = "LOCOMO_ZIP";
    static final String ENTRY = "data/multimodal_dialog/locomo10_v2/%d.json";

    private static final Pattern DIA_ID = Pattern.compile("D(\\d+):(\\d+)");
    /** "1:56 pm on 8 May, 2023" (the release's session date-times, read as UTC). */
    private static final DateTimeFormatter SESSION_TIME = new DateTimeFormatterBuilder()
            .parseCaseInsensitive()
            .appendPattern("h:mm a 'on' d MMMM, yyyy")
            .toFormatter(Locale.ENGLISH);

    private Locomo() {}

    /** The zip named by the system property {@value #PROPERTY} or the environment variable {@value #ENV}, if any. */
    public static Optional<Path> zip() {
        String named = System.getProperty(PROPERTY, System.getenv(ENV));
        return named == null || named.isBlank()
                ? Optional.empty()
                : Optional.of(Path.of(named)).filter(Files::isRegularFile);
    }

    /** One speaker turn; {@code session} is K of {@code session_K}. */
    public record Turn(String diaId, int session, String speaker, String text, String caption, Instant at) {

        /** The memory text: "speaker: text", plus " [shares a photo: caption]" when the turn has an image. */
        public String content() {
            return speaker + ": " + text + (caption == null ? "" : " [shares a photo: " + caption + "]");
        }
    }

    /**
     * One question; {@code evidence} holds only ids of turns of the conversation.
     *
     * @param category 1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop, 5 adversarial
     */
    public record Question(String id, String text, int category, List<String> evidence) {}

    /**
     * @param droppedEvidence evidence references that are malformed or name no turn of the conversation
     * @param droppedQuestions questions left without any valid evidence
     */
    public record Conversation(
            int id, List<Turn> turns, List<Question> questions, int droppedEvidence, int droppedQuestions) {

        public String space() {
            return "locomo-" + id;
        }
    }

    public static List<Conversation> read(Path zip, List<Integer> ids) {
        try (ZipFile file = new ZipFile(zip.toFile())) {
            List<Conversation> out = new ArrayList<>();
            for (int id : ids) {
                out.add(read(file, id));
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + zip, e);
        }
    }

    static Conversation read(ZipFile file, int id) throws IOException {
        if (!ALLOWED.contains(id)) {
            throw new IllegalArgumentException("conversation " + id + " is held out: only " + ALLOWED + " may be read");
        }
        ZipEntry entry = file.getEntry(String.format(Locale.ROOT, ENTRY, id));
        if (entry == null) {
            throw new IllegalArgumentException("no conversation " + id + " in " + file.getName());
        }
        try (InputStream in = file.getInputStream(entry)) {
            return parse(id, new ObjectMapper().readTree(in));
        }
    }

    static Conversation parse(int id, JsonNode root) {
        List<Turn> turns = new ArrayList<>();
        for (int k = 1; root.has("session_" + k + "_date_time"); k++) {
            JsonNode session = root.get("session_" + k);
            if (session == null || !session.isArray()) {
                continue; // a date without turns
            }
            Instant at = LocalDateTime.parse(
                            root.get("session_" + k + "_date_time").asText().trim(), SESSION_TIME)
                    .toInstant(ZoneOffset.UTC);
            for (JsonNode t : session) {
                turns.add(new Turn(
                        t.get("dia_id").asText(),
                        k,
                        t.get("speaker").asText(),
                        t.get("text").asText(),
                        t.hasNonNull("blip_caption") ? t.get("blip_caption").asText() : null,
                        at));
            }
        }
        Set<String> known = new LinkedHashSet<>();
        turns.forEach(t -> known.add(t.diaId()));
        List<Question> questions = new ArrayList<>();
        int dropped = 0;
        int droppedQuestions = 0;
        int n = 0;
        for (JsonNode qa : root.get("qa")) {
            n++;
            Set<String> evidence = new LinkedHashSet<>();
            for (JsonNode ref : qa.path("evidence")) {
                // a reference is "D3:5"; a few hold several ids or stray characters: every well-formed id counts
                Matcher m = DIA_ID.matcher(ref.asText());
                boolean any = false;
                while (m.find()) {
                    String diaId = "D" + Integer.parseInt(m.group(1)) + ":" + Integer.parseInt(m.group(2));
                    any = true;
                    if (known.contains(diaId)) {
                        evidence.add(diaId);
                    } else {
                        dropped++;
                    }
                }
                if (!any) {
                    dropped++;
                }
            }
            if (evidence.isEmpty()) {
                droppedQuestions++;
                continue;
            }
            questions.add(new Question(
                    "conv-" + id + "#" + n,
                    qa.get("question").asText(),
                    qa.get("category").asInt(),
                    List.copyOf(evidence)));
        }
        return new Conversation(id, List.copyOf(turns), List.copyOf(questions), dropped, droppedQuestions);
    }
}
