package io.memorychain.springai;

import io.memorychain.client.MemoryChainClient;
import java.util.List;
import org.springframework.ai.chat.memory.ChatMemoryRepository;
import org.springframework.ai.chat.messages.Message;

/**
 * A Spring AI {@link ChatMemoryRepository} on Memory Chain: each conversation is a thread of episodic memories in one
 * space, one memory per message, in order. {@link #saveAll} keeps what is already stored, soft-deletes the stored
 * messages the new list no longer holds (a chat memory window's evictions) and appends the new ones;
 * {@link #deleteByConversationId} soft-deletes every message with a reason (restorable, still on the chain).
 */
public final class MemoryChainChatMemoryRepository implements ChatMemoryRepository {

    private final ConversationMessages messages;

    public MemoryChainChatMemoryRepository(MemoryChainClient client, String space) {
        this.messages = new ConversationMessages(client, space);
    }

    @Override
    public List<String> findConversationIds() {
        return messages.conversationIds();
    }

    @Override
    public List<Message> findByConversationId(String conversationId) {
        return messages.stored(conversationId).stream()
                .map(ConversationMessages.Stored::message)
                .toList();
    }

    @Override
    public void saveAll(String conversationId, List<Message> wanted) {
        List<ConversationMessages.Stored> stored = messages.stored(conversationId);
        boolean[] keep = new boolean[stored.size()];
        int kept = keptPrefix(stored, wanted, keep);
        for (int i = 0; i < stored.size(); i++) {
            if (!keep[i]) {
                messages.delete(stored.get(i).memoryId(), "left the chat memory of conversation " + conversationId);
            }
        }
        messages.append(conversationId, wanted.subList(kept, wanted.size()));
    }

    @Override
    public void deleteByConversationId(String conversationId) {
        for (ConversationMessages.Stored gone : messages.stored(conversationId)) {
            messages.delete(gone.memoryId(), "conversation " + conversationId + " deleted");
        }
    }

    /**
     * How many of the wanted messages, from the first, are already stored in the same order (each matched to a later
     * stored message than the one before; marked in {@code keep}). The rest of the wanted messages are appended; stored
     * messages not matched are deleted, so the thread's order is the wanted order.
     */
    static int keptPrefix(List<ConversationMessages.Stored> stored, List<Message> wanted, boolean[] keep) {
        int next = 0;
        int kept = 0;
        for (Message m : wanted) {
            int at = -1;
            for (int i = next; i < stored.size() && at < 0; i++) {
                if (ConversationMessages.sameStored(stored.get(i).message(), m)) {
                    at = i;
                }
            }
            if (at < 0) {
                break;
            }
            keep[at] = true;
            next = at + 1;
            kept++;
        }
        return kept;
    }
}
