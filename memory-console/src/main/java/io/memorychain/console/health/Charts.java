package io.memorychain.console.health;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Charts drawn on the server as SVG: geometry only (the template writes it as attributes; no script, no inline style,
 * so the Content-Security-Policy holds).
 */
public final class Charts {

    /** One bar: its box, the label under or beside it and the value it stands for. */
    public record Bar(
            int x,
            int y,
            int width,
            int height,
            String label,
            long value,
            int labelX,
            int labelY,
            boolean labelShown) {}

    /** A chart: its size, its bars and the largest value (the scale). */
    public record Chart(String id, String title, int width, int height, long max, List<Bar> bars) {

        public boolean empty() {
            return max == 0;
        }
    }

    static final int WIDTH = 480;
    static final int COLUMN_HEIGHT = 140;
    static final int ROW = 22;
    static final int LABEL = 110;

    private Charts() {}

    /**
     * Vertical bars, one per day (or any series), left to right; the last bar and every {@code labelEvery}-th one
     * before it are labelled below.
     */
    public static Chart columns(String id, String title, List<String> labels, List<Long> values, int labelEvery) {
        long max = values.stream().mapToLong(Long::longValue).max().orElse(0);
        int n = Math.max(1, values.size());
        int slot = (WIDTH - 40) / n;
        int plot = COLUMN_HEIGHT - 24;
        List<Bar> bars = new ArrayList<>();
        for (int i = 0; i < values.size(); i++) {
            long v = values.get(i);
            int h = max == 0 ? 0 : (int) Math.max(v > 0 ? 1 : 0, Math.round((double) v * (plot - 8) / max));
            int x = 30 + i * slot;
            bars.add(new Bar(
                    x,
                    6 + plot - 8 - h + 8,
                    Math.max(1, slot - 2),
                    h,
                    labels.get(i),
                    v,
                    x,
                    COLUMN_HEIGHT - 6,
                    (values.size() - 1 - i) % labelEvery == 0));
        }
        return new Chart(id, title, WIDTH, COLUMN_HEIGHT, max, bars);
    }

    /** Horizontal bars, one per entry, top to bottom, each labelled on the left with its count on the right. */
    public static Chart rows(String id, String title, Map<String, Long> counts) {
        long max = counts.values().stream().mapToLong(Long::longValue).max().orElse(0);
        int plot = WIDTH - LABEL - 60;
        List<Bar> bars = new ArrayList<>();
        int i = 0;
        for (Map.Entry<String, Long> e : counts.entrySet()) {
            long v = e.getValue();
            int w = max == 0 ? 0 : (int) Math.max(v > 0 ? 1 : 0, Math.round((double) v * plot / max));
            int y = 6 + i * ROW;
            bars.add(new Bar(LABEL, y, w, ROW - 6, e.getKey(), v, LABEL + w + 6, y + ROW - 10, true));
            i++;
        }
        return new Chart(id, title, WIDTH, Math.max(ROW, 12 + counts.size() * ROW), max, bars);
    }
}
