package io.memorychain.projector.view;

import java.util.List;

/** One page of results; {@code next} is the cursor for the following page, null on the last page. */
public record Page<T>(List<T> items, String next) {}
