package io.memorychain.api.quota;

/**
 * One key's figures.
 *
 * @param requestsPerSecond the bucket's refill rate
 * @param burst the bucket's size: requests a key may send at once after a quiet spell
 * @param writesPerDay writes per UTC day, 0 for no budget
 */
record Limits(double requestsPerSecond, int burst, long writesPerDay) {

    Limits {
        if (!(requestsPerSecond > 0) || burst < 1 || writesPerDay < 0) {
            throw new IllegalArgumentException("quota figures must be positive (writes-per-day: 0 for none): "
                    + requestsPerSecond + "/s, burst " + burst + ", " + writesPerDay + " writes a day");
        }
    }
}
