// Retries of 429/503/timeouts/dropped answers: bounded, honouring Retry-After, one Idempotency-Key per write.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { InvalidArgumentError, MemoryChain, RebalancingError, TimeoutError, UnavailableError } from "../src/index.js";
import { FakeServer } from "./fake-server.js";

const WRITTEN = { memory: { id: "m1", content: "Ana likes tea", version: 1 }, seq: 7 };

describe("retries", () => {
  let server: FakeServer;
  let slept: number[];
  let client: MemoryChain;

  beforeEach(async () => {
    server = await new FakeServer().start();
    slept = [];
    client = new MemoryChain(server.url, "k", {
      timeoutMs: 2000,
      retry: { maxAttempts: 3, initialBackoffMs: 10, maxBackoffMs: 20 },
      sleep: async (ms) => { slept.push(ms); },
    });
  });
  afterEach(() => server.stop());

  it("retries a 503 after its Retry-After with the same Idempotency-Key", async () => {
    server.queue({ status: 503, body: { code: "REBALANCING", message: "moving" }, headers: { "Retry-After": "2" } },
      { status: 201, body: WRITTEN });
    const result = await client.createMemory("a", { content: "Ana likes tea" });
    expect(result.memory.id).toBe("m1");
    expect(result.seq).toBe(7);
    expect(slept).toEqual([2000]);
    const keys = server.requests.map((r) => r.headers["idempotency-key"]);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBeTruthy();
    expect(keys[1]).toBe(keys[0]);
    expect(server.requests[1].json()).toEqual({ content: "Ana likes tea" });
  });

  it("retries a 429 whose Retry-After is an HTTP date", async () => {
    server.queue({ status: 429, body: { code: "RATE_LIMITED", message: "slow down" },
      headers: { "Retry-After": "Wed, 21 Oct 2015 07:28:00 GMT" } }, { status: 200, body: { text: "", tokens: 0 } });
    expect((await client.getCore("a")).tokens).toBe(0);
    expect(slept).toEqual([0]);
  });

  it("bounds the attempts and throws the last answer typed", async () => {
    for (let i = 0; i < 3; i++) {
      server.queue({ status: 503, body: { code: "REBALANCING", message: "moving", request_id: "r-1" },
        headers: { "Retry-After": "1" } });
    }
    const error = await client.createMemory("a", { content: "x" }, { idempotencyKey: "r-1" }).catch((e) => e);
    expect(error).toBeInstanceOf(RebalancingError);
    expect(error.status).toBe(503);
    expect(error.retryAfter).toBe(1000);
    expect(error.requestId).toBe("r-1");
    expect(server.requests.map((r) => r.headers["idempotency-key"])).toEqual(["r-1", "r-1", "r-1"]);
  });

  it("retries a timed-out write with the same key", async () => {
    // the second answer comes at once, well within the timeout even on a busy machine
    const quick = new MemoryChain(server.url, "k", { timeoutMs: 1000, retry: { maxAttempts: 3 },
      sleep: async (ms) => { slept.push(ms); } });
    server.queue({ status: 201, body: WRITTEN, delayMs: 5000 }, { status: 201, body: WRITTEN });
    expect((await quick.createMemory("a", { content: "x" })).memory.id).toBe("m1");
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1].headers["idempotency-key"]).toBe(server.requests[0].headers["idempotency-key"]);
  });

  it("retries a dropped answer with the same key", async () => {
    server.queue({ drop: true }, { status: 201, body: WRITTEN });
    await client.createMemory("a", { content: "x" }, { idempotencyKey: "mine-1" });
    expect(server.requests.map((r) => r.headers["idempotency-key"])).toEqual(["mine-1", "mine-1"]);
    expect(slept).toHaveLength(1);
  });

  it("ends in a TimeoutError when every attempt times out", async () => {
    const quick = new MemoryChain(server.url, "k", { timeoutMs: 200, retry: { maxAttempts: 3 },
      sleep: async () => {} });
    server.queue({ delayMs: 1000 }, { delayMs: 1000 }, { delayMs: 1000 });
    const error = await quick.getCore("a").catch((e) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.code).toBe("TIMEOUT");
    expect(server.requests).toHaveLength(3);
  });

  it("does not retry a 400", async () => {
    server.queue({ status: 400, body: { code: "INVALID_ARGUMENT", message: "content is required" } });
    await expect(client.createMemory("a", { content: "" })).rejects.toBeInstanceOf(InvalidArgumentError);
    expect(server.requests).toHaveLength(1);
    expect(slept).toEqual([]);
  });

  it("does not retry issuing a key after a 503", async () => {
    server.queue({ status: 503, body: { code: "UNAVAILABLE", message: "store down" } });
    await expect(client.issueKey({ id: "x", role: "agent", spaces: ["a"] })).rejects.toBeInstanceOf(UnavailableError);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0].headers["idempotency-key"]).toBeUndefined();
  });

  it("gives every write a fresh key and reads none", async () => {
    server.queue({ status: 201, body: WRITTEN }, { status: 201, body: WRITTEN },
      { status: 200, body: { items: [], next: null } });
    await client.createMemory("a", { content: "one" });
    await client.createMemory("a", { content: "two" });
    await client.listMemories("a");
    const [first, second, read] = server.requests;
    expect(first.headers["idempotency-key"]).not.toBe(second.headers["idempotency-key"]);
    expect(read.headers["idempotency-key"]).toBeUndefined();
    expect(read.headers.authorization).toBe("Bearer k");
  });
});
