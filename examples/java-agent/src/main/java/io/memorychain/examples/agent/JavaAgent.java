package io.memorychain.examples.agent;

import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.SystemMessage;
import io.memorychain.client.MemoryChainClient;
import io.memorychain.langchain4j.MemoryChainToolProvider;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * A minimal agent loop on Memory Chain with LangChain4j and a scripted model: no LLM, no network but the memory
 * service. Each session is a new AiServices assistant (its chat window in memory, gone with the session) whose tools
 * are the memory tools ({@link MemoryChainToolProvider}); the model stores facts with {@code memory_remember} and looks
 * them up with {@code memory_recall}. The two sessions share nothing but the service: what the first is told, the
 * second recalls.
 *
 * <pre>
 * source data/keys/api-keys.env                       # MEMORY_AGENT_KEY
 * ./mvnw -q -pl examples/java-agent compile exec:java   # MEMORY_CHAIN_URL defaults to http://localhost:8080
 * </pre>
 */
public final class JavaAgent {

    interface Assistant {
        @SystemMessage("You are a helpful assistant with a long-term memory.")
        String chat(@MemoryId String thread, @dev.langchain4j.service.UserMessage String message);
    }

    static final List<List<String>> SCRIPT = List.of(
            List.of("Remember that my sister Eva lives in Lisbon.", "Remember that I am allergic to peanuts."),
            List.of("Where does my sister Eva live?", "Which food am I allergic to?"));
    static final List<String> EXPECTED = List.of("Lisbon", "peanuts");

    private JavaAgent() {}

    public static void main(String[] args) {
        String url = env("MEMORY_CHAIN_URL", "http://localhost:8080");
        String space = env("MEMORY_CHAIN_SPACE", "assistant");
        String key = env("MEMORY_CHAIN_AGENT_KEY", System.getenv("MEMORY_AGENT_KEY"));
        if (key == null || key.isBlank()) {
            System.err.println("set MEMORY_AGENT_KEY (source data/keys/api-keys.env) or MEMORY_CHAIN_AGENT_KEY");
            System.exit(2);
        }
        System.exit(run(MemoryChainClient.builder(url, key).build(), space, System.out));
    }

    /** Runs both sessions; 0 when the second recalled every fact the first was told, 1 otherwise. */
    public static int run(MemoryChainClient memory, String space, PrintStream out) {
        List<String> answers = new ArrayList<>();
        for (int session = 0; session < SCRIPT.size(); session++) {
            String thread = "thread-" + UUID.randomUUID().toString().substring(0, 8);
            Assistant assistant = assistant(memory, space); // a new agent each session: only the service carries over
            out.printf("--- session %d (%s)%n", session + 1, thread);
            for (String said : SCRIPT.get(session)) {
                out.println("user:  " + said);
                String answer = assistant.chat(thread, said);
                out.println("agent: " + answer);
                answers.add(answer);
            }
        }
        List<String> recalled = answers.subList(SCRIPT.get(0).size(), answers.size());
        List<String> missing = new ArrayList<>();
        for (int i = 0; i < EXPECTED.size(); i++) {
            if (!recalled.get(i).contains(EXPECTED.get(i))) {
                missing.add(EXPECTED.get(i));
            }
        }
        if (!missing.isEmpty()) {
            out.println("the second session did not recall: " + String.join(", ", missing));
            return 1;
        }
        out.println("the second session recalled what the first was told");
        return 0;
    }

    static Assistant assistant(MemoryChainClient memory, String space) {
        return AiServices.builder(Assistant.class)
                .chatModel(new ScriptedModel())
                .chatMemoryProvider(id -> MessageWindowChatMemory.withMaxMessages(20))
                .toolProvider(new MemoryChainToolProvider(memory, space))
                .build();
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
