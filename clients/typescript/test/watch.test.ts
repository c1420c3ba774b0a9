// The watch of a space's changes: the event stream parsed as the standard says, resumed without gap or duplicate.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EventStreamParser, MemoryChain, SpaceNotAllowedError, UnauthenticatedError } from "../src/index.js";
import { FakeServer } from "./fake-server.js";

const event = (seq: number, type = "MemoryCreated") =>
  `id: ${seq}\nevent: ${type}\ndata: {"seq": ${seq}, "event_type": "${type}"}\n\n`;
const stream = (body: string) => ({ body, headers: { "Content-Type": "text/event-stream" } });

describe("event stream parser", () => {
  it("reads fields, multi-line data, comments and the last event id", () => {
    const parser = new EventStreamParser();
    const lines = ["\uFEFF: opening", "retry: 2000", "", "id: 7", "event: MemoryCreated", 'data: {"a":', "data:  1}", "",
      ": keep-alive", "", "data: no id of its own", "", "id: 8", "event: cut before its blank line"];
    const events = lines.map((l) => parser.line(l)).filter((e) => e !== undefined);
    expect(events).toEqual([{ id: "7", type: "MemoryCreated", data: '{"a":\n 1}' },
      { id: "7", type: "message", data: "no id of its own" }]);
    expect(parser.retryMs).toBe(2000);
  });
});

describe("watchChanges", () => {
  let server: FakeServer;
  let client: MemoryChain;
  const slept: number[] = [];
  beforeEach(async () => {
    slept.length = 0;
    server = await new FakeServer().start();
    client = new MemoryChain(server.url, "k", { retry: { maxAttempts: 1 }, sleep: async (ms) => { slept.push(ms); } });
  });
  afterEach(() => server.stop());

  it("resumes a stream cut inside an event after the last seq, without gap or duplicate", async () => {
    server.queue(stream(`retry: 500\n\n${event(1)}${event(2)}id: 3\nevent: MemoryCreated\n`),
      { status: 503, body: { code: "REBALANCING", message: "moving" }, headers: { "Retry-After": "2" } },
      stream(`${event(2)}${event(3)}${event(4)}`));
    const seqs: number[] = [];
    for await (const change of client.watchChanges("team.a")) {
      seqs.push(change.seq!);
      if (seqs.length === 4) break;
    }
    expect(seqs).toEqual([1, 2, 3, 4]);
    expect(server.requests.map((r) => r.headers["last-event-id"])).toEqual(["0", "2", "2"]);
    expect(server.requests[0].path).toBe("/v1/spaces/team.a/changes");
    expect(server.requests[0].headers.accept).toBe("text/event-stream");
    expect(slept).toEqual([500, 2000]);
  });

  it("ends with the typed error of an error event (a revoked key)", async () => {
    server.queue(stream(`${event(5)}event: error\ndata: {"code": "UNAUTHENTICATED", "message": "revoked"}\n\n`));
    const seqs: number[] = [];
    await expect((async () => {
      for await (const change of client.watchChanges("a", { afterSeq: 4 })) seqs.push(change.seq!);
    })()).rejects.toBeInstanceOf(UnauthenticatedError);
    expect(seqs).toEqual([5]);
    expect(server.requests).toHaveLength(1);
  });

  it("throws an error answer other than 429 or 503 at once", async () => {
    server.queue({ status: 403, body: { code: "SPACE_NOT_ALLOWED", message: "not yours" } });
    await expect(client.watchChanges("a").next()).rejects.toBeInstanceOf(SpaceNotAllowedError);
  });
});
