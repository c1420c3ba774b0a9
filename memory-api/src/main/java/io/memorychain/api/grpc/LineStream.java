package io.memorychain.api.grpc;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/**
 * An output stream of UTF-8 text that hands on each line (without its newline) as it completes; close ends the last.
 */
final class LineStream extends OutputStream {

    private final Consumer<String> lines;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream();

    LineStream(Consumer<String> lines) {
        this.lines = lines;
    }

    @Override
    public void write(int b) {
        if (b == '\n') {
            emit();
        } else {
            line.write(b);
        }
    }

    @Override
    public void write(byte[] bytes, int offset, int length) {
        int start = offset;
        for (int i = offset; i < offset + length; i++) {
            if (bytes[i] == '\n') {
                line.write(bytes, start, i - start);
                emit();
                start = i + 1;
            }
        }
        line.write(bytes, start, offset + length - start);
    }

    @Override
    public void close() {
        if (line.size() > 0) {
            emit();
        }
    }

    private void emit() {
        lines.accept(line.toString(StandardCharsets.UTF_8));
        line.reset();
    }
}
