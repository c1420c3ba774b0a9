// Routes, bodies, If-Match helpers, page iterators and the tool runner, against the scripted server.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MemoryChain, UnknownBlockLabelError, VersionConflictError, ifMatchHeader, runTool, toolDefinitions }
  from "../src/index.js";
import type { MarkdownFileWrite, MarkdownPatch } from "../src/index.js";
import { FakeServer } from "./fake-server.js";

const memory = (id: string, version = 1, content = "x") => ({ id, version, content, state: "active" });

describe("client", () => {
  let server: FakeServer;
  let client: MemoryChain;
  beforeEach(async () => {
    server = await new FakeServer().start();
    client = new MemoryChain(server.url + "/", "k", { retry: { maxAttempts: 1 } });
  });
  afterEach(() => server.stop());

  it("calls the routes with their methods and query parameters", async () => {
    server.queue({ body: { items: [], next: null } }, { body: memory("m 1") }, { body: { id: "m1", relations: [] } });
    await client.listMemories("team.a", { kind: "semantic", limit: 5, state: undefined });
    await client.getMemory("team.a", "m 1", { as_of_seq: 3 });
    await client.unlink("team.a", "m1", "m2");
    const [listed, got, unlinked] = server.requests;
    expect([listed.method, listed.path]).toEqual(["GET", "/v1/spaces/team.a/memories?kind=semantic&limit=5"]);
    expect(got.path).toBe("/v1/spaces/team.a/memories/m%201?as_of_seq=3");
    expect([unlinked.method, unlinked.path]).toEqual(["DELETE", "/v1/spaces/team.a/memories/m1/links/m2"]);
    expect(unlinked.headers["idempotency-key"]).toBeTruthy();
  });

  it("keeps a file path's slashes and sends the text as Markdown with its ETag", async () => {
    server.queue({ body: "# Preferences\n\n- tea <!-- id:m1 -->\n", headers: { "Content-Type": "text/markdown", ETag: '"ab12"' } },
      { body: { path: "facts/preferences.md", applied: 1, changes: [] } });
    const read = await client.readFile("a", "facts/preferences.md");
    expect(read.etag).toBe('"ab12"');
    const written = await client.writeFile("a", read.path, `${read.text}- coffee\n`, { ifMatch: read.etag! });
    expect(written.applied).toBe(1);
    const [get, put] = server.requests;
    expect(get.path).toBe("/v1/spaces/a/files/facts/preferences.md");
    expect(get.headers.accept).toBe("text/markdown");
    expect([put.method, put.headers["content-type"], put.headers["if-match"]]).toEqual(["PUT", "text/markdown", '"ab12"']);
  });

  it("patches a file with the hand-written Markdown body and answer types", async () => {
    const change = { line: 3, action: "created", target: "m9", seq: 12 };
    server.queue({ body: { path: "facts/preferences.md", applied: 1, changes: [change], file: null } });
    const patch: MarkdownPatch = { edits: [{ old_text: "tea", new_text: "green tea" }] };
    const written: MarkdownFileWrite = await client.patchFile("a", "facts/preferences.md", patch);
    expect(written.changes?.[0]).toEqual(change);
    const [post] = server.requests;
    expect([post.method, post.path]).toEqual(["POST", "/v1/spaces/a/files/facts/preferences.md:patch"]);
    expect(JSON.parse(post.body)).toEqual({ edits: [{ old_text: "tea", new_text: "green tea" }] });
  });

  it("sends the expected version as an entity tag", async () => {
    expect(ifMatchHeader(3)).toBe('"3"');
    expect(ifMatchHeader('W/"3"')).toBe('W/"3"');
    server.queue({ body: { memory: memory("m1", 4), seq: 9 } });
    const result = await client.updateMemory("a", "m1", { content: "y", importance: 5 }, { ifMatch: 3 });
    expect(result.memory.version).toBe(4);
    expect(server.requests[0].headers["if-match"]).toBe('"3"');
    expect(server.requests[0].json()).toEqual({ content: "y", importance: 5 });
  });

  it("reads again after a version conflict in a checked update", async () => {
    server.queue({ body: memory("m1", 1, "a") }, { status: 409, body: { code: "VERSION_CONFLICT", message: "2" } },
      { body: memory("m1", 2, "ab") }, { body: { memory: memory("m1", 3, "ab!"), seq: 5 } });
    const result = await client.updateMemoryChecked("a", "m1", (m) => ({ content: `${m.content}!` }));
    expect(result.memory.version).toBe(3);
    const patches = server.requests.filter((r) => r.method === "PATCH");
    expect(patches.map((p) => p.headers["if-match"])).toEqual(['"1"', '"2"']);
    expect(patches[1].json()).toEqual({ content: "ab!" });
  });

  it("gives up a checked update after its attempts", async () => {
    for (const v of [1, 2]) {
      server.queue({ body: memory("m1", v) }, { status: 409, body: { code: "VERSION_CONFLICT", message: "" } });
    }
    await expect(client.updateMemoryChecked("a", "m1", () => ({ content: "z" }), 2))
      .rejects.toBeInstanceOf(VersionConflictError);
  });

  it("follows next until the last page of memories", async () => {
    server.queue({ body: { items: [memory("m1"), memory("m2")], next: "m2" } }, { body: { items: [memory("m3")], next: null } });
    const ids: string[] = [];
    for await (const m of client.iterMemories("a", { kind: "semantic", limit: 2 })) ids.push(m.id!);
    expect(ids).toEqual(["m1", "m2", "m3"]);
    expect(server.requests[1].path).toBe("/v1/spaces/a/memories?kind=semantic&limit=2&after=m2");
  });

  it("follows next_after_seq through the audit log", async () => {
    server.queue({ body: { items: [{ seq: 1 }, { seq: 2 }], next_after_seq: 2 } },
      { body: { items: [{ seq: 3 }], next_after_seq: null } });
    const seqs: number[] = [];
    for await (const e of client.iterAudit("a", { limit: 2 })) seqs.push(e.seq!);
    expect(seqs).toEqual([1, 2, 3]);
    expect(server.requests[1].path).toBe("/v1/spaces/a/audit?limit=2&after_seq=2");
  });

  it("parses the chain export line by line", async () => {
    server.queue({ body: '{"header":true}\n{"seq":1}\n', headers: { "Content-Type": "application/x-ndjson" } });
    expect(await client.exportChain("a")).toEqual([{ header: true }, { seq: 1 }]);
  });

  it("offers the service's tools and runs a call through MCP with a space and an idempotency key", async () => {
    const tools = toolDefinitions(["memory_commit", "memory_recall"]);
    expect(tools.map((t) => t.function.name)).toEqual(["memory_commit", "memory_recall"]);
    expect(tools[0].type).toBe("function");
    expect(() => toolDefinitions(["nope"])).toThrow(/unknown tool/);
    server.queue({ body: { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: '{"memory":{"id":"m1"},"seq":2}' }],
      isError: false } } });
    const answer = await runTool(client, { function: { name: "memory_commit", arguments: '{"content":"Ana likes tea"}' } },
      { space: "a" });
    expect(answer).toEqual({ memory: { id: "m1" }, seq: 2 });
    const sent = server.requests[0].json() as { method: string; params: { name: string; arguments: Record<string, unknown> } };
    expect(server.requests[0].path).toBe("/mcp");
    expect(sent.method).toBe("tools/call");
    expect(sent.params.arguments.space).toBe("a");
    expect(sent.params.arguments.content).toBe("Ana likes tea");
    expect(sent.params.arguments.idempotency_key).toBeTruthy();
  });

  it("throws a tool's refusal as its typed error", async () => {
    server.queue({ body: { jsonrpc: "2.0", id: 1, result: { isError: true, content: [{ type: "text",
      text: '{"code":"UNKNOWN_BLOCK_LABEL","message":"unknown block label","request_id":"r-7"}' }] } } });
    const error = (await runTool(client, { name: "block_update", arguments: { label: "nope", content: "x" } })
      .catch((e) => e)) as UnknownBlockLabelError;
    expect(error).toBeInstanceOf(UnknownBlockLabelError);
    expect(error.requestId).toBe("r-7");
  });
});
