package io.memorychain.domain.category;

import java.util.List;

/** The agent asked for categories outside its allowlist (HTTP 403 {@code CATEGORY_NOT_ALLOWED}). */
public final class CategoryNotAllowedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final List<String> categories;

    public CategoryNotAllowedException(String agent, List<String> categories) {
        super("agent " + agent + " may not read categories " + categories);
        this.categories = List.copyOf(categories);
    }

    public List<String> categories() {
        return categories;
    }
}
