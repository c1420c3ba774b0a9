/**
 * A space's changes as server-sent events (`GET /v1/spaces/{space}/changes`), resumed after a dropped connection.
 * The event stream is read as the HTML standard interprets it: `data:` lines join with a line feed, `event:` names the
 * type, `id:` sets the last event id, `retry:` (digits only) the reconnection time, lines starting with a colon are
 * comments (the service's keep-alives), and a blank line dispatches an event (none without data).
 */
import type { components } from "./schema.js";
import { MemoryChainError, errorFor } from "./errors.js";
import { retryAfterMs, toError, type Transport } from "./transport.js";

type AuditEntry = components["schemas"]["AuditEntry"];

/** Codes after which the watch reconnects (the server stops, moves or is busy); any other error ends it. */
const RECONNECT = new Set(["UNAVAILABLE", "REBALANCING", "TIMEOUT", "RATE_LIMITED"]);

export interface SseEvent {
  id?: string;
  type: string;
  data: string;
}

export interface WatchOptions {
  /** Start after this seq (default 0: from the start of the chain). */
  afterSeq?: number;
  /** Reconnect when nothing arrived for this long, in ms (default 60000; the service sends a keep-alive every 15 s). */
  idleTimeoutMs?: number;
  /** Longest wait between two attempts, in ms (default 30000). */
  maxBackoffMs?: number;
  /** Stops the watch. */
  signal?: AbortSignal;
}

/** Lines in (without their line ending), events out; `retryMs` holds the last `retry:`. */
export class EventStreamParser {
  lastEventId?: string;
  retryMs?: number;
  private data: string[] = [];
  private type?: string;
  private first = true;

  line(raw: string): SseEvent | undefined {
    let line = raw;
    if (this.first) {
      this.first = false;
      if (line.startsWith("\uFEFF")) line = line.slice(1);
    }
    if (line === "") return this.dispatch();
    if (line.startsWith(":")) return undefined;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") this.type = value;
    else if (field === "data") this.data.push(value);
    else if (field === "id" && !value.includes("\0")) this.lastEventId = value;
    else if (field === "retry" && /^\d+$/.test(value)) this.retryMs = Number(value);
    return undefined;
  }

  private dispatch(): SseEvent | undefined {
    if (this.data.length === 0) {
      this.type = undefined;
      return undefined;
    }
    const event: SseEvent = { id: this.lastEventId, type: this.type || "message", data: this.data.join("\n") };
    this.data = [];
    this.type = undefined;
    return event;
  }
}

/**
 * Each audit entry after `afterSeq`, once, in seq order, for as long as the caller iterates. A dropped connection (a
 * network error, a cut stream, a restarting server, or `idleTimeoutMs` without a byte) is reopened with
 * `Last-Event-ID` = the last seq yielded, after the stream's `retry:` (or 1 s), doubled after each failed attempt, or a
 * 429/503's Retry-After. An error event or answer with another code throws its MemoryChainError. Leaving the loop (or
 * `return()`, or the signal) closes the connection.
 */
export async function* watchChanges(transport: Transport, space: string, options: WatchOptions = {})
  : AsyncGenerator<AuditEntry> {
  let last = options.afterSeq ?? 0;
  if (last < 0) throw new RangeError(`afterSeq must be 0 or more, was ${last}`);
  const idleMs = options.idleTimeoutMs ?? 60000;
  const maxBackoffMs = options.maxBackoffMs ?? 30000;
  const path = `/v1/spaces/${encodeURIComponent(space)}/changes`;
  let retry = 1000;
  let failed = 0;
  while (!options.signal?.aborted) {
    let wait: number | undefined;
    let opened = false;
    const controller = new AbortController();
    const onAbort = () => controller.abort();
    options.signal?.addEventListener("abort", onAbort);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => controller.abort(new Error(`nothing received for ${idleMs} ms`)), idleMs);
    };
    try {
      arm();
      const response = await transport.stream(path, {
        Accept: "text/event-stream", "Cache-Control": "no-cache", "Last-Event-ID": String(last),
      }, controller.signal);
      if (!response.ok) {
        const error = await toError(response, undefined, retryAfterMs(response.headers.get("Retry-After")));
        if (!RECONNECT.has(error.code)) throw error;
        wait = error.retryAfter;
      } else if (response.body) {
        opened = true;
        const parser = new EventStreamParser();
        for await (const line of lines(response.body, arm)) {
          const event = parser.line(line);
          if (parser.retryMs !== undefined) retry = parser.retryMs;
          if (!event) continue;
          const data = JSON.parse(event.data) as AuditEntry & { code?: string; message?: string; request_id?: string };
          if (event.type === "error") {
            const error = errorFor(data.code, data.message ?? "", { status: 200, body: data, requestId: data.request_id });
            if (!RECONNECT.has(error.code)) throw error;
            break;
          }
          const seq = Number(data.seq ?? -1);
          if (seq <= last) continue; // delivered before
          yield data;
          last = seq;
        }
      }
    } catch (e) {
      if (e instanceof MemoryChainError) throw e;
      // dropped, silent or refused: reconnect
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      controller.abort();
    }
    if (options.signal?.aborted) return;
    if (opened) failed = 0;
    failed++;
    let delay = Math.min(Math.max(retry * 2 ** (failed - 1), 100), maxBackoffMs);
    if (wait !== undefined) delay = Math.min(Math.max(delay, wait), maxBackoffMs);
    await transport.wait(delay);
  }
}

/** The body's lines (CR, LF or CRLF ends); `onChunk` after each chunk read. */
async function* lines(body: ReadableStream<Uint8Array>, onChunk: () => void): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let buffer = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return; // an unterminated last line dispatches nothing
      onChunk();
      buffer += decoder.decode(value, { stream: true });
      let start = 0;
      for (let i = 0; i < buffer.length; i++) {
        const c = buffer[i];
        if (c !== "\n" && c !== "\r") continue;
        if (c === "\r" && i + 1 === buffer.length) break; // a CRLF split between chunks: wait for the rest
        yield buffer.slice(start, i);
        if (c === "\r" && buffer[i + 1] === "\n") i++;
        start = i + 1;
      }
      buffer = buffer.slice(start);
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
}
