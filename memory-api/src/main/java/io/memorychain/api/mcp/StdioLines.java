package io.memorychain.api.mcp;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/** The lines of a byte stream (UTF-8, newline-ended, a trailing CR dropped), each at most a given size. */
final class StdioLines {

    /** A line, or the mark of one over the limit (its bytes were skipped up to its newline). */
    record Line(String text, boolean tooLong) {}

    private final InputStream in;
    private final int max;

    StdioLines(InputStream in, int max) {
        this.in = new BufferedInputStream(in);
        this.max = max;
    }

    /** The next line, or null at the end of the stream. */
    Line next() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        boolean tooLong = false;
        int b;
        boolean any = false;
        while ((b = in.read()) != -1) {
            any = true;
            if (b == '\n') {
                return line(line, tooLong);
            }
            if (line.size() >= max) {
                tooLong = true;
            } else {
                line.write(b);
            }
        }
        return any ? line(line, tooLong) : null;
    }

    private static Line line(ByteArrayOutputStream bytes, boolean tooLong) {
        if (tooLong) {
            return new Line("", true);
        }
        String text = bytes.toString(StandardCharsets.UTF_8);
        return new Line(text.endsWith("\r") ? text.substring(0, text.length() - 1) : text, false);
    }
}
