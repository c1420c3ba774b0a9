package io.memorychain.clients;

import static org.assertj.core.api.Assertions.assertThat;
import static org.bsc.langgraph4j.action.AsyncNodeAction.node_async;

import io.memorychain.client.MemoryChainClient;
import io.memorychain.langgraph4j.MemoryChainCheckpointSaver;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.bsc.langgraph4j.CompileConfig;
import org.bsc.langgraph4j.CompiledGraph;
import org.bsc.langgraph4j.GraphDefinition;
import org.bsc.langgraph4j.RunnableConfig;
import org.bsc.langgraph4j.StateGraph;
import org.bsc.langgraph4j.checkpoint.BaseCheckpointSaver;
import org.bsc.langgraph4j.checkpoint.Checkpoint;
import org.bsc.langgraph4j.state.AgentState;

/**
 * A LangGraph4j graph compiled with memory-langgraph4j's checkpoint saver on the real service: each step's checkpoint
 * is saved on the service, a second saver (another process's) reads the thread's state and history back, and release
 * deletes the thread's checkpoints. Run by {@link ClientsConformanceIT} on its service.
 */
final class LangGraphCheckpoints {

    static final String SPACE = "lg4j-graph";

    private LangGraphCheckpoints() {}

    static CompiledGraph<AgentState> graph(BaseCheckpointSaver saver) throws Exception {
        return new StateGraph<>(AgentState::new)
                .addNode("plan", node_async(state -> Map.of("plan", "look up the weather")))
                .addNode("act", node_async(state -> Map.of("answer", "sunny", "steps", 2)))
                .addEdge(GraphDefinition.START, "plan")
                .addEdge("plan", "act")
                .addEdge("act", GraphDefinition.END)
                .compile(CompileConfig.builder().checkpointSaver(saver).build());
    }

    static void run(MemoryChainClient client) throws Exception {
        String thread = "thread-" + UUID.randomUUID();
        RunnableConfig config = RunnableConfig.builder().threadId(thread).build();

        var result = graph(new MemoryChainCheckpointSaver(client, SPACE, "ana"))
                .invoke(Map.of("question", "weather?"), config);
        assertThat(result)
                .get()
                .extracting(AgentState::data)
                .satisfies(d -> assertThat(d).containsEntry("answer", "sunny"));

        MemoryChainCheckpointSaver other = new MemoryChainCheckpointSaver(client, SPACE, "ana");
        assertThat(other.get(config))
                .get()
                .extracting(Checkpoint::getState)
                .satisfies(s -> assertThat(s)
                        .containsEntry("question", "weather?")
                        .containsEntry("plan", "look up the weather")
                        .containsEntry("answer", "sunny")
                        .containsEntry("steps", 2));
        List<Checkpoint> history = List.copyOf(other.list(config));
        assertThat(history).as("one checkpoint per step, newest first").hasSizeGreaterThanOrEqualTo(2);
        assertThat(history.get(0).getState()).containsEntry("answer", "sunny");
        assertThat(history.get(history.size() - 1).getState()).doesNotContainKey("answer");
        assertThat(graph(other).getState(config).state().data()).containsEntry("answer", "sunny");
        assertThat(client.getCheckpoint(SPACE, "latest", Map.of("thread_id", thread, "user_id", "ana"))
                        .path("saved_by")
                        .asText())
                .startsWith("agent:");

        assertThat(other.get(RunnableConfig.builder().threadId(thread).build())).isPresent();
        BaseCheckpointSaver.Tag released = other.release(config);
        assertThat(released.checkpoints()).hasSize(history.size());
        assertThat(other.get(config)).isEmpty();
        assertThat(other.list(config)).isEmpty();
    }
}
