package io.memorychain.api.memories;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memorychain.api.categories.CategoryReads;
import io.memorychain.api.core.CoreMemory;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.grants.GrantedReads;
import io.memorychain.api.history.AsOfReads;
import io.memorychain.api.history.PointInTimeReads;
import io.memorychain.api.request.InputRules;
import io.memorychain.api.topology.TopologyBackend;
import io.memorychain.api.write.WriteContext;
import io.memorychain.api.write.WriteExecutor;
import io.memorychain.avro.Actor;
import io.memorychain.avro.ActorType;
import io.memorychain.domain.category.CategoryAccess;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The listing every transport answers ({@link AsOfReads#list}): pages, points in time, an admin's grant. */
class MemoryListingTest {

    private static final Actor AGENT = new Actor(ActorType.AGENT, "claude");
    private static final Actor ADMIN = new Actor(ActorType.ADMIN, "ops");

    private final TopologyBackend chain = new TopologyBackend();
    private final WriteExecutor writes = new WriteExecutor(chain, Duration.ofSeconds(5), Clock.systemUTC());
    private final CategoryReads categories = new CategoryReads(CategoryAccess.unrestricted());
    private final Memories memories =
            new Memories(chain, writes, new MemoryRequests(new InputRules(1024, 10)), categories);
    private final PointInTimeReads pointInTime = new PointInTimeReads(chain, categories);
    private final AsOfReads lists = new AsOfReads(
            memories,
            new CoreMemory(chain, categories),
            pointInTime,
            new GrantedReads(chain, writes),
            null); // no query here: no retrieval

    private String create(String content) {
        return memories.create(
                        WriteContext.of("s", AGENT, null, null, null),
                        new CreateMemoryBody(
                                content, null, null, null, null, null, null, null, null, null, null, null, null, null,
                                null, null, null))
                .memory()
                .getId();
    }

    @Test
    void pagesThroughTheSpaceInCreationOrderNowAndAtAPointInTime() {
        String first = create("first");
        String second = create("second");
        String third = create("third");

        MemoryPage page = lists.list("s", AGENT, null, null, null, null, 2, null);
        assertThat(page.items()).extracting(MemoryJson::id).containsExactly(first, second);
        assertThat(page.next()).isEqualTo(second);
        MemoryPage rest = lists.list("s", AGENT, null, null, null, page.next(), 2, null);
        assertThat(rest.items()).extracting(MemoryJson::id).containsExactly(third);
        assertThat(rest.next()).isNull();
        assertThat(lists.list("s", AGENT, null, null, null, null, null, lists.point("s", "2", null))
                        .items())
                .extracting(MemoryJson::content)
                .containsExactly("first", "second");
    }

    @Test
    void anAdminWithoutAGrantGetsNoContent() {
        create("the vault code is 4711");

        assertThatThrownBy(() -> lists.list("s", ADMIN, null, null, null, null, null, null))
                .isInstanceOfSatisfying(
                        ApiException.class, e -> assertThat(e.code()).isEqualTo("GRANT_REQUIRED"));
        assertThat(lists.list("s", AGENT, null, null, null, null, null, null).items())
                .hasSize(1);
    }
}
