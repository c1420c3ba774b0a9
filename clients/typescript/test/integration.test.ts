// Against a running service: MEMORY_CHAIN_URL, MEMORY_CHAIN_AGENT_KEY (an agent key on every space, '*') and
// MEMORY_CHAIN_ADMIN_KEY (an admin key). Skipped when they are not set. Each run writes to spaces of its own.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import {
  AlreadyLinkedError, InvalidArgumentError, InvalidFilterError, MemoryChain, NotFoundError, PatchConflictError,
  RoleNotAllowedError, SpaceNotAllowedError, TOOL_DEFINITIONS, TooLargeError, UnauthenticatedError,
  UnknownBlockLabelError, VersionConflictError, fetchToolDefinitions, runTool,
} from "../src/index.js";

const URL = process.env.MEMORY_CHAIN_URL;
const AGENT_KEY = process.env.MEMORY_CHAIN_AGENT_KEY;
const ADMIN_KEY = process.env.MEMORY_CHAIN_ADMIN_KEY;
const live = Boolean(URL && AGENT_KEY && ADMIN_KEY);
if (!live) {
  console.log("integration tests skipped: set MEMORY_CHAIN_URL, MEMORY_CHAIN_AGENT_KEY and MEMORY_CHAIN_ADMIN_KEY");
}

async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

async function failure(promise: Promise<unknown>): Promise<any> {
  return promise.then(() => { throw new Error("expected an error"); }, (e: unknown) => e);
}

describe.skipIf(!live)("against the running service", () => {
  let agent: MemoryChain;
  let admin: MemoryChain;
  const space = `ts-${randomUUID().slice(0, 10)}`;

  beforeAll(() => {
    agent = new MemoryChain(URL!, AGENT_KEY);
    admin = new MemoryChain(URL!, ADMIN_KEY);
  });

  it("watches the backlog then a change written while it waits", async () => {
    const watched = `${space}-watch`;
    await agent.createMemory(watched, { content: "before the watch" });
    const changes = agent.watchChanges(watched);
    try {
      const first = await changes.next();
      expect([first.value?.seq, first.value?.event_type]).toEqual([1, "MemoryCreated"]);
      await agent.createMemory(watched, { content: "while it waits" });
      expect((await changes.next()).value?.seq).toBe(2);
    } finally {
      await changes.return(undefined);
    }
  });

  it("names the agent", async () => {
    const me = await agent.whoAmI();
    expect(me.role).toBe("agent");
    expect(me.spaces).toContain("*");
  });

  it("keeps a memory through create, read, update, delete and restore", async () => {
    const created = await agent.createMemory(space, { content: "Ana likes green tea", kind: "semantic", importance: 4 });
    const id = created.memory.id!;
    expect([created.memory.version, created.memory.state]).toEqual([1, "active"]);
    expect(created.seq).toBeGreaterThan(0);
    expect((await agent.getMemory(space, id)).content).toBe("Ana likes green tea");
    expect((await agent.updateMemory(space, id, { content: "Ana likes jasmine tea" }, { ifMatch: 1 })).memory.version).toBe(2);
    const stale = await failure(agent.updateMemory(space, id, { content: "stale" }, { ifMatch: 1, idempotencyKey: `stale-${id}` }));
    expect(stale).toBeInstanceOf(VersionConflictError);
    expect([stale.status, stale.requestId]).toEqual([409, `stale-${id}`]);
    const checked = await agent.updateMemoryChecked(space, id, (m) => ({ content: `${m.content}!` }));
    expect(checked.memory.content).toBe("Ana likes jasmine tea!");
    expect((await agent.deleteMemory(space, id, { reason: "test" })).memory.state).toBe("soft_deleted");
    expect((await agent.restoreMemory(space, id)).memory.state).toBe("active");
    expect((await agent.getHistory(space, id)).items?.length).toBeGreaterThanOrEqual(4);
  });

  it("applies a retried write with the same key once", async () => {
    const s = `${space}-idem`;
    const key = `ts-idem-${randomUUID()}`;
    const first = await agent.createMemory(s, { content: "Ben plays the cello" }, { idempotencyKey: key });
    const again = await agent.createMemory(s, { content: "Ben plays the cello" }, { idempotencyKey: key });
    expect(again.memory.id).toBe(first.memory.id);
    expect(again.seq).toBe(first.seq);
    expect((await all(agent.iterMemories(s))).map((m) => m.id)).toEqual([first.memory.id]);
  });

  it("walks every page of memories and of the audit log", async () => {
    const s = `${space}-pages`;
    const ids = new Set<string>();
    for (let i = 0; i < 5; i++) ids.add((await agent.createMemory(s, { content: `fact number ${i}` })).memory.id!);
    expect(new Set((await all(agent.iterMemories(s, { limit: 2 }))).map((m) => m.id))).toEqual(ids);
    const seqs = (await all(agent.iterAudit(s, { limit: 2 }))).map((e) => e.seq!);
    expect(seqs.length).toBeGreaterThanOrEqual(5);
    expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
  });

  it("recalls through query and context, blocks and core", async () => {
    const s = `${space}-recall`;
    await agent.createMemory(s, { content: "The user's dog is called Pixel", kind: "semantic" });
    const answer = await agent.query(s, { query: "What is the dog called?", top_k: 3 });
    expect(answer.items.some((item) => item.text?.includes("Pixel"))).toBe(true);
    await agent.putBlock(s, "persona", { content: "A helpful assistant" });
    expect((await agent.getBlock(s, "persona")).content).toBe("A helpful assistant");
    expect((await agent.getCore(s)).text).toContain("A helpful assistant");
    expect((await agent.context(s, { message: "Tell me about my dog" })).text).toContain("Pixel");
  });

  it("links and unlinks", async () => {
    const a = (await agent.createMemory(space, { content: "Paris is in France" })).memory.id!;
    const b = (await agent.createMemory(space, { content: "The Louvre is in Paris" })).memory.id!;
    const linked = await agent.link(space, a, { to: b });
    expect(linked.relations?.filter((r) => r.from_id === a).map((r) => r.to_id)).toEqual([b]);
    const again = await failure(agent.link(space, a, { to: b }));
    expect(again).toBeInstanceOf(AlreadyLinkedError);
    expect(again.requestId).toBeTruthy();
    await agent.unlink(space, a, b);
    expect((await agent.getRelations(space, a)).relations).toEqual([]);
  });

  it("reads and edits the Markdown files", async () => {
    const s = `${space}-files`;
    await agent.appendFile(s, "facts/preferences.md", { text: "- Ana prefers mornings" });
    expect((await agent.listFiles(s)).files?.map((f) => f.path)).toContain("facts/preferences.md");
    const read = await agent.readFile(s, "facts/preferences.md");
    expect(read.text).toContain("Ana prefers mornings");
    expect(read.etag).toBeTruthy();
    await expect(agent.patchFile(s, "facts/preferences.md", { edits: [{ old_text: "absent", new_text: "x" }] }))
      .rejects.toBeInstanceOf(PatchConflictError);
  });

  it("verifies and exports the chain", async () => {
    const s = `${space}-chain`;
    await agent.createMemory(s, { content: "Chain me" });
    expect((await admin.verifyChain(s)).ok).toBe(true);
    expect((await admin.chainCheckpoint(s)).space).toBe(s);
    expect((await agent.chainKeys()).keys?.length).toBeGreaterThan(0);
    expect((await agent.exportChain(s)).length).toBeGreaterThanOrEqual(2);
    expect(((await agent.exportSpace(s)) as { format: string }).format).toBe("memory-chain-export/1");
  });

  it("types the errors of the real service", async () => {
    const missing = await failure(agent.getMemory(space, "m-does-not-exist"));
    expect(missing).toBeInstanceOf(NotFoundError);
    expect([missing.status, missing.code]).toEqual([404, "NOT_FOUND"]);
    expect(missing.message).toBeTruthy();
    await expect(new MemoryChain(URL!, "mc_nope_nope").getCore(space)).rejects.toBeInstanceOf(UnauthenticatedError);
    await expect(agent.listMemories(space, { limit: 0 })).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(agent.listKeys()).rejects.toBeInstanceOf(RoleNotAllowedError);
    const large = await failure(agent.createMemory(space, { content: "x".repeat(40000) }, { idempotencyKey: `too-large-${space}` }));
    expect(large).toBeInstanceOf(TooLargeError);
    expect(large.requestId).toBe(`too-large-${space}`);
    await expect(agent.query(space, { query: "x", filters: { colour: "red" } })).rejects.toBeInstanceOf(InvalidFilterError);
    await expect(agent.putBlock(space, "no_such_label", { content: "x" })).rejects.toBeInstanceOf(UnknownBlockLabelError);
  });

  it("refuses a key of one space another space", async () => {
    const issued = await admin.issueKey({ id: `ts-narrow-${space}`, role: "agent", spaces: [space] });
    try {
      await expect(new MemoryChain(URL!, issued.key!).getCore(`${space}-other`)).rejects.toBeInstanceOf(SpaceNotAllowedError);
      expect((await admin.listKeys()).items?.map((k) => k.key_id)).toContain(issued.key_id);
    } finally {
      expect((await admin.revokeKey(issued.key_id!)).revoked).toBe(true);
    }
  });

  it("lets a sub-agent propose and the agent commit", async () => {
    const s = `${space}-proposals`;
    const sub = await admin.issueKey({ id: `ts-sub-${space}`, role: "subagent", spaces: [s] });
    try {
      const proposed = await new MemoryChain(URL!, sub.key!).propose(s, { content: "Ana's sister is called Eva" });
      expect(proposed.proposal.status).toBe("pending");
      expect((await agent.listProposals(s)).items?.map((p) => p.id)).toContain(proposed.proposal.id);
      const committed = await agent.commitProposal(s, proposed.proposal.id!, { reason: "looks right" });
      expect(committed.memory?.content).toBe("Ana's sister is called Eva");
    } finally {
      await admin.revokeKey(sub.key_id!);
    }
  });

  it("ships the tool definitions the service serves and runs a tool call", async () => {
    expect(TOOL_DEFINITIONS).toEqual(await fetchToolDefinitions(agent));
    const s = `${space}-tools`;
    const committed = await runTool(agent, { function: { name: "memory_commit",
      arguments: JSON.stringify({ content: "Ana's favourite colour is teal" }) } }, { space: s }) as { memory: { id: string } };
    expect((await agent.getMemory(s, committed.memory.id)).content).toBe("Ana's favourite colour is teal");
    await expect(runTool(agent, { name: "block_update", arguments: { space: s, label: "nope", content: "x" } }))
      .rejects.toBeInstanceOf(UnknownBlockLabelError);
  });
});
