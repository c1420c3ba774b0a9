package io.memorychain.worker;

import io.memorychain.events.chain.SpaceChainReader;
import java.io.PrintStream;

/** Prints {@code read N/M offsets} to stderr at every tenth and at the end. */
final class ProgressLine implements SpaceChainReader.Progress {

    private final PrintStream err;
    private long nextAt;

    ProgressLine(PrintStream err) {
        this.err = err;
    }

    @Override
    public void update(long read, long total) {
        if (read >= nextAt || read == total) {
            err.println("read " + read + "/" + total + " offsets");
            nextAt = read + Math.max(1, total / 10);
            if (read == total) {
                nextAt = Long.MAX_VALUE;
            }
        }
    }
}
