package io.memorychain.api.markdown;

import io.memorychain.api.error.ApiException;
import io.memorychain.api.error.ErrorCodes;
import io.memorychain.api.request.Texts;
import java.time.DateTimeException;
import java.time.YearMonth;
import java.util.regex.Pattern;

/**
 * The sandbox of the Markdown view. A path is relative, uses {@code /}, and is exactly one of {@code MEMORY.md},
 * {@code facts/<name>.md}, {@code episodes/YYYY-MM.md}, {@code procedures/<name>.md} with {@code <name>} from
 * {@code [A-Za-z0-9_-]} (1 to 64, starting with a letter or digit). Everything else (absolute paths, {@code ..} or
 * {@code .} segments, percent-encoding, backslashes, empty segments, unknown roots, other extensions, over-long paths)
 * is 400 INVALID_PATH. A valid path need not exist: reading one that does not is 404 NOT_FOUND.
 */
public final class MarkdownPaths {

    public static final int MAX_LENGTH = 128;
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]{0,63}");
    private static final Pattern MONTH = Pattern.compile("\\d{4}-\\d{2}");

    private MarkdownPaths() {}

    public static MarkdownPath parse(String path) {
        if (path == null || path.isEmpty()) {
            throw invalid(path, "the path is empty");
        }
        if (path.length() > MAX_LENGTH) {
            throw invalid(path, "the path is longer than " + MAX_LENGTH + " characters");
        }
        if (path.startsWith("/") || path.startsWith("~") || (path.length() > 1 && path.charAt(1) == ':')) {
            throw invalid(path, "absolute paths are not allowed");
        }
        if (path.indexOf('\\') >= 0) {
            throw invalid(path, "backslashes are not allowed: use '/'");
        }
        if (path.indexOf('%') >= 0) {
            throw invalid(path, "percent-encoded characters are not allowed");
        }
        if (path.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
            throw invalid(path, "control characters are not allowed");
        }
        String[] segments = path.split("/", -1);
        for (String segment : segments) {
            if (segment.isEmpty()) {
                throw invalid(path, "empty path segments are not allowed");
            }
            if (segment.equals("..") || segment.equals(".")) {
                throw invalid(path, "'.' and '..' segments are not allowed");
            }
        }
        if (segments.length == 1) {
            if (path.equals("MEMORY.md")) {
                return MarkdownPath.MEMORY;
            }
            throw invalid(path, "the only top-level file is MEMORY.md");
        }
        if (segments.length != 2) {
            throw invalid(path, "there are no subdirectories below facts/, episodes/ and procedures/");
        }
        String file = segments[1];
        if (!file.endsWith(".md")) {
            throw invalid(path, "only .md files exist");
        }
        String name = file.substring(0, file.length() - 3);
        return switch (segments[0]) {
            case "facts" -> MarkdownPath.facts(name(path, name));
            case "procedures" -> MarkdownPath.procedures(name(path, name));
            case "episodes" -> MarkdownPath.episodes(month(path, name));
            default ->
                throw invalid(
                        path,
                        "unknown root '" + Texts.abbreviate(segments[0])
                                + "': use MEMORY.md, facts/, episodes/ or procedures/");
        };
    }

    private static String name(String path, String name) {
        if (!NAME.matcher(name).matches()) {
            throw invalid(
                    path, "file names are 1 to 64 characters from A-Z a-z 0-9 _ - (starting with a letter or digit)");
        }
        return name;
    }

    private static YearMonth month(String path, String name) {
        if (MONTH.matcher(name).matches()) {
            try {
                return YearMonth.parse(name);
            } catch (DateTimeException e) {
                // falls through to the message below
            }
        }
        throw invalid(path, "episode files are named by month: episodes/YYYY-MM.md");
    }

    private static ApiException invalid(String path, String why) {
        return new ApiException(ErrorCodes.INVALID_PATH, "Invalid path '" + Texts.abbreviate(path) + "': " + why);
    }
}
