package io.memorychain.api.mcp;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * An output of whole lines shared by two writers (the MCP server's answers and the stdio gate's errors): bytes are held
 * until their newline, then the line is written and flushed at once, so the lines of the two never interleave.
 */
final class LineOutput extends OutputStream {

    private final OutputStream out;
    private final ByteArrayOutputStream pending = new ByteArrayOutputStream();

    LineOutput(OutputStream out) {
        this.out = out;
    }

    @Override
    public synchronized void write(int b) throws IOException {
        pending.write(b);
        if (b == '\n') {
            pending.writeTo(out);
            out.flush();
            pending.reset();
        }
    }

    @Override
    public synchronized void write(byte[] bytes, int offset, int length) throws IOException {
        for (int i = offset; i < offset + length; i++) {
            write(bytes[i]);
        }
    }

    /** A whole line of its own (its newline added). */
    synchronized void line(String text) throws IOException {
        if (pending.size() > 0) {
            throw new IllegalStateException("a line is half written");
        }
        out.write((text + "\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    @Override
    public synchronized void flush() throws IOException {
        out.flush();
    }

    @Override
    public synchronized void close() throws IOException {
        out.close();
    }
}
