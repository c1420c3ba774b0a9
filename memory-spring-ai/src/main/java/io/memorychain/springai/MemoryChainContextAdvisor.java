package io.memorychain.springai;

import com.fasterxml.jackson.databind.JsonNode;
import io.memorychain.client.MemoryChainClient;
import io.memorychain.client.Write;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.ai.chat.client.ChatClientMessageAggregator;
import org.springframework.ai.chat.client.ChatClientRequest;
import org.springframework.ai.chat.client.ChatClientResponse;
import org.springframework.ai.chat.client.advisor.api.AdvisorChain;
import org.springframework.ai.chat.client.advisor.api.BaseAdvisor;
import org.springframework.ai.chat.client.advisor.api.StreamAdvisorChain;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.Prompt;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A Spring AI advisor on Memory Chain. Before each turn it asks the space for its context ({@code POST /context}: core
 * memory, the categories always in context, and the memories retrieved for the user's message) and adds it to the
 * system message; after the turn it commits the exchange (the user's message and the model's answer) to the
 * conversation's thread as episodic memories, in the format {@link MemoryChainChatMemoryRepository} reads. The
 * conversation is the advisor parameter {@link ChatMemory#CONVERSATION_ID} (else the default one).
 *
 * <p>Used with {@code MessageChatMemoryAdvisor} over a {@link MemoryChainChatMemoryRepository} on the same space, turn
 * the commit off ({@link Builder#commitExchange(boolean)}): that advisor already stores the messages.
 */
public final class MemoryChainContextAdvisor implements BaseAdvisor {

    /** The request-context key under which the advisor leaves the {@code /context} answer (a {@link JsonNode}). */
    public static final String CONTEXT_ANSWER = "memorychain_context";

    static final String USER_TEXT = "memorychain_user_text";
    static final String HEADER = "Long-term memory (Memory Chain) relevant to this conversation:";
    private static final Logger LOG = LoggerFactory.getLogger(MemoryChainContextAdvisor.class);

    private final MemoryChainClient client;
    private final ConversationMessages conversations;
    private final int maxTokens;
    private final boolean commitExchange;
    private final String defaultConversationId;
    private final int order;

    private MemoryChainContextAdvisor(Builder b) {
        this.client = b.client;
        this.conversations = new ConversationMessages(b.client, b.space);
        this.maxTokens = b.maxTokens;
        this.commitExchange = b.commitExchange;
        this.defaultConversationId = b.defaultConversationId;
        this.order = b.order;
    }

    public static Builder builder(MemoryChainClient client, String space) {
        return new Builder(client, space);
    }

    @Override
    public ChatClientRequest before(ChatClientRequest request, AdvisorChain chain) {
        String conversation = conversationId(request.context());
        UserMessage user = request.prompt().getUserMessage();
        String text = user == null || user.getText() == null ? "" : user.getText();
        Map<String, Object> body = new HashMap<>();
        if (!text.isBlank()) {
            body.put("message", text);
        }
        body.put("thread_id", conversation);
        body.put("max_tokens", maxTokens);
        JsonNode answer = client.context(conversations.space(), body, Write.DEFAULT);
        String context = answer.path("text").asText("");
        LOG.debug(
                "context for conversation {}: {} tokens, memories {}",
                conversation,
                answer.path("tokens").asInt(),
                answer.path("memory_ids"));
        Prompt prompt = context.isBlank()
                ? request.prompt()
                : request.prompt()
                        .augmentSystemMessage(system -> SystemMessage.builder()
                                .text(join(system.getText(), HEADER + "\n" + context))
                                .metadata(system.getMetadata())
                                .build());
        return request.mutate()
                .prompt(prompt)
                .context(CONTEXT_ANSWER, answer)
                .context(USER_TEXT, text)
                .build();
    }

    @Override
    public ChatClientResponse after(ChatClientResponse response, AdvisorChain chain) {
        if (commitExchange) {
            commit(response);
        }
        return response;
    }

    @Override
    public Flux<ChatClientResponse> adviseStream(ChatClientRequest request, StreamAdvisorChain chain) {
        // commit once, with the whole streamed answer (the default would commit the last chunk only)
        return Mono.just(request)
                .publishOn(getScheduler())
                .map(r -> before(r, chain))
                .flatMapMany(chain::nextStream)
                .transform(flux -> new ChatClientMessageAggregator()
                        .aggregateChatClientResponse(flux, aggregated -> after(aggregated, chain)));
    }

    private void commit(ChatClientResponse response) {
        String conversation = conversationId(response.context());
        List<Message> exchange = new ArrayList<>();
        Object asked = response.context().get(USER_TEXT);
        if (asked instanceof String s && !s.isBlank()) {
            exchange.add(new UserMessage(s));
        }
        if (response.chatResponse() != null) {
            for (Generation g : response.chatResponse().getResults()) {
                AssistantMessage answer = g.getOutput();
                if (answer != null
                        && (answer.hasToolCalls()
                                || answer.getText() != null && !answer.getText().isBlank())) {
                    exchange.add(answer);
                }
            }
        }
        conversations.append(conversation, exchange);
    }

    private String conversationId(Map<String, Object> context) {
        Object id = context.get(ChatMemory.CONVERSATION_ID);
        return id == null ? defaultConversationId : id.toString();
    }

    private static String join(String system, String context) {
        return system == null || system.isBlank() ? context : system + "\n\n" + context;
    }

    @Override
    public String getName() {
        return "MemoryChainContextAdvisor";
    }

    @Override
    public int getOrder() {
        return order;
    }

    /** Options: {@code max_tokens} of the context (2000), the commit (on), the default conversation, the order. */
    public static final class Builder {
        private final MemoryChainClient client;
        private final String space;
        private int maxTokens = 2000;
        private boolean commitExchange = true;
        private String defaultConversationId = ChatMemory.DEFAULT_CONVERSATION_ID;
        private int order = DEFAULT_CHAT_MEMORY_PRECEDENCE_ORDER;

        private Builder(MemoryChainClient client, String space) {
            this.client = Objects.requireNonNull(client, "client");
            this.space = Objects.requireNonNull(space, "space");
        }

        public Builder maxTokens(int maxTokens) {
            this.maxTokens = maxTokens;
            return this;
        }

        public Builder commitExchange(boolean commitExchange) {
            this.commitExchange = commitExchange;
            return this;
        }

        public Builder defaultConversationId(String id) {
            this.defaultConversationId = Objects.requireNonNull(id, "id");
            return this;
        }

        public Builder order(int order) {
            this.order = order;
            return this;
        }

        public MemoryChainContextAdvisor build() {
            return new MemoryChainContextAdvisor(this);
        }
    }
}
