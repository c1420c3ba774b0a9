// Every error code of the service becomes its own error class, carrying code, message, request id and status.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ERRORS, InternalError, MemoryChain, MemoryChainError, NotFoundError, VersionConflictError } from "../src/index.js";
import { FakeServer } from "./fake-server.js";

// the service's codes and their HTTP status (memory-api io.memorychain.api.error.ErrorCodes)
const STATUS: Record<string, number> = {
  INVALID_ARGUMENT: 400, UNKNOWN_BLOCK_LABEL: 400, FORBIDDEN: 403, CONSTITUTIONAL: 403, NOT_IN_REFINEMENT: 403,
  CATEGORY_NOT_ALLOWED: 403, NOT_FOUND: 404, VERSION_CONFLICT: 409, INVALID_STATE: 409, HELD_FOR_CONSENT: 409, ALREADY_LINKED: 409,
  ALREADY_RESOLVED: 409, BUDGET_EXCEEDED: 409, EXPIRED: 409, TOO_LARGE: 413, INVALID_PATH: 400, INVALID_FILTER: 400,
  PATCH_CONFLICT: 409, INVALID_CONFIRMATION: 400, CONFIRMATION_NOT_YOURS: 403, UNAUTHENTICATED: 401,
  SPACE_NOT_ALLOWED: 403, ROLE_NOT_ALLOWED: 403, GRANT_REQUIRED: 403, METHOD_NOT_ALLOWED: 405, NOT_ACCEPTABLE: 406,
  UNSUPPORTED_MEDIA_TYPE: 415, REJECTED: 422, TIMEOUT: 503, CHAIN_BROKEN: 409, UNAVAILABLE: 503, REBALANCING: 503, RATE_LIMITED: 429,
  NOT_OWNER: 421, NOT_AVAILABLE: 501, INTERNAL: 500,
};

describe("error mapping", () => {
  let server: FakeServer;
  let client: MemoryChain;
  beforeAll(async () => {
    server = await new FakeServer().start();
    client = new MemoryChain(server.url, "k", { retry: { maxAttempts: 1 } });
  });
  afterAll(() => server.stop());

  it("has a class for every code of the service", () => {
    expect(Object.keys(ERRORS).sort()).toEqual(Object.keys(STATUS).sort());
  });

  it.each(Object.entries(STATUS))("turns %s (HTTP %i) into its typed error", async (code, status) => {
    const reply = { status, body: { code, message: `why ${code}`, request_id: `req-${code}` } };
    // fetch itself repeats a request answered 421 once on a new connection (the Fetch standard)
    server.queue(...(status === 421 ? [reply, reply] : [reply]));
    const error = await client.updateMemory("a", "m1", { content: "x" }).catch((e) => e);
    server.clear();
    expect(error).toBeInstanceOf(ERRORS[code as keyof typeof ERRORS]);
    expect(error).toBeInstanceOf(MemoryChainError);
    expect(error.constructor).toBe(ERRORS[code as keyof typeof ERRORS]);
    expect(error.code).toBe(code);
    expect(error.message).toBe(`why ${code}`);
    expect(error.requestId).toBe(`req-${code}`);
    expect(error.status).toBe(status);
    expect(String(error)).toContain(code);
  });

  it("takes a read error's request id from X-Request-Id", async () => {
    server.queue({ status: 404, body: { code: "NOT_FOUND", message: "no memory m9" }, headers: { "X-Request-Id": "rid-9" } });
    const error = await client.getMemory("a", "m9").catch((e) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.requestId).toBe("rid-9");
  });

  it("names the key it sent when a write's answer has no request id", async () => {
    server.queue({ status: 409, body: { code: "VERSION_CONFLICT", message: "expected 1, is 2" } });
    const error = await client.updateMemory("a", "m1", { content: "x" }, { ifMatch: 1, idempotencyKey: "write-42" })
      .catch((e) => e);
    expect(error).toBeInstanceOf(VersionConflictError);
    expect(error.requestId).toBe("write-42");
  });

  it("keeps an unknown code of a newer service", async () => {
    server.queue({ status: 422, body: { code: "SOMETHING_NEW", message: "newer sequencer" } });
    const error = await client.createMemory("a", { content: "x" }).catch((e) => e);
    expect(error.constructor).toBe(MemoryChainError);
    expect(error.code).toBe("SOMETHING_NEW");
  });

  it("gives an answer without a JSON body the code of its status", async () => {
    server.queue({ status: 502, body: "<html>bad gateway</html>", headers: { "Content-Type": "text/html" } });
    const error = await client.getCore("a").catch((e) => e);
    expect(error).toBeInstanceOf(InternalError);
    expect(error.status).toBe(502);
    expect(error.message).toContain("bad gateway");
  });
});
