package io.memorychain.api.categories;

import io.memorychain.api.error.ApiException;
import io.memorychain.api.error.ErrorCodes;
import io.memorychain.avro.Actor;
import io.memorychain.avro.Memory;
import io.memorychain.domain.category.CategoryAccess;
import io.memorychain.domain.core.CoreView;
import jakarta.inject.Singleton;
import java.util.Set;

/**
 * Category allowlists on the read side: an agent or sub-agent with an allowlist reads only memories of its categories
 * (and uncategorized ones). Asking for a disallowed memory or category is 403 CATEGORY_NOT_ALLOWED; listings and the
 * core view leave disallowed memories out. Other actors read everything.
 */
@Singleton
public class CategoryReads {

    private final CategoryAccess access;

    public CategoryReads(CategoryAccess access) {
        this.access = access;
    }

    /** The memory, or 403 CATEGORY_NOT_ALLOWED when the actor may not read its category. */
    public Memory requireReadable(Actor actor, Memory memory) {
        if (!access.allows(actor, memory.getCategory())) {
            throw new ApiException(
                    ErrorCodes.CATEGORY_NOT_ALLOWED,
                    "memory " + memory.getId() + ": " + access.notAllowed(actor, memory.getCategory()));
        }
        return memory;
    }

    /** 403 CATEGORY_NOT_ALLOWED when the actor asks for a category it may not read (null: no category asked for). */
    public void requireReadable(Actor actor, String category) {
        if (!access.allows(actor, category)) {
            throw new ApiException(ErrorCodes.CATEGORY_NOT_ALLOWED, access.notAllowed(actor, category));
        }
    }

    /** Whether the actor may read memories of that category (null category: always). */
    public boolean readable(Actor actor, String category) {
        return access.allows(actor, category);
    }

    /** The categories a listing for this actor is narrowed to, or null when the actor reads everything. */
    public Set<String> listable(Actor actor) {
        return access.allowedFor(actor).orElse(null);
    }

    /** The core view without the core-tier memories the actor may not read (blocks have no category and stay). */
    public CoreView visible(Actor actor, CoreView core) {
        return access.allowedFor(actor).isEmpty() ? core : core.retain(m -> access.allows(actor, m.getCategory()));
    }
}
