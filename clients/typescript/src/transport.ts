/** HTTP over fetch: bearer auth, JSON, typed errors, bounded retries of 429/503/timeouts honouring Retry-After. */
import { MemoryChainError, errorFor } from "./errors.js";

export interface RetryPolicy {
  /** Attempts in all, the first included (default 4). */
  maxAttempts: number;
  /** Backoff before the first retry, in ms, doubled each time (default 200). */
  initialBackoffMs: number;
  /** Longest backoff, in ms (default 5000). */
  maxBackoffMs: number;
  /** Longest Retry-After honoured, in ms (default 30000). */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  maxAttempts: 4,
  initialBackoffMs: 200,
  maxBackoffMs: 5000,
  maxRetryAfterMs: 30000,
};

export interface TransportOptions {
  baseUrl: string;
  apiKey?: string;
  /** Per attempt, in ms (default 30000). */
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  fetch?: typeof fetch;
  /** How to wait between attempts (tests record the delays). */
  sleep?: (ms: number) => Promise<void>;
}

export interface HttpRequest {
  method: string;
  path: string;
  query?: Record<string, unknown>;
  body?: unknown;
  contentType?: string;
  headers?: Record<string, string>;
  /** False for a call that a retry after a timeout could apply twice (issuing a key). */
  retrySafe?: boolean;
}

const CODE_OF_STATUS: Record<number, string> = {
  400: "INVALID_ARGUMENT", 401: "UNAUTHENTICATED", 403: "FORBIDDEN", 404: "NOT_FOUND", 405: "METHOD_NOT_ALLOWED",
  406: "NOT_ACCEPTABLE", 409: "VERSION_CONFLICT", 413: "TOO_LARGE", 415: "UNSUPPORTED_MEDIA_TYPE", 421: "NOT_OWNER",
  422: "REJECTED", 429: "RATE_LIMITED", 501: "NOT_AVAILABLE", 503: "UNAVAILABLE", 504: "TIMEOUT",
};

/** Retry-After as ms: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(value: string | null | undefined, now: number = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed) * 1000;
  const when = Date.parse(trimmed);
  return Number.isNaN(when) ? undefined : Math.max(when - now, 0);
}

export function queryString(query: Record<string, unknown> | undefined): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    params.append(key, Array.isArray(value) ? value.join(",") : String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

export class Transport {
  readonly baseUrl: string;
  private readonly apiKey?: string;
  private readonly timeoutMs: number;
  private readonly retry: RetryPolicy;
  private readonly fetchFn: typeof fetch;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(options: TransportOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.apiKey = options.apiKey;
    this.timeoutMs = options.timeoutMs ?? 30000;
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    this.fetchFn = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  /** The answer of a 2xx; a typed MemoryChainError otherwise, once retries are spent. */
  async send(request: HttpRequest): Promise<Response> {
    const sentId = request.headers?.["Idempotency-Key"];
    const retrySafe = request.retrySafe ?? true;
    for (let attempt = 1; ; attempt++) {
      let response: Response;
      try {
        response = await this.once(request);
      } catch (e) {
        const timeout = isTimeout(e);
        if (retrySafe && attempt < this.retry.maxAttempts) {
          await this.sleep(this.delay(attempt, undefined));
          continue;
        }
        throw errorFor(timeout ? "TIMEOUT" : "UNAVAILABLE", `${request.method} ${request.path}: ${describe(e)}`,
          { requestId: sentId });
      }
      if (response.ok) return response;
      const wait = retryAfterMs(response.headers.get("Retry-After"));
      const retriable = response.status === 429 || (response.status === 503 && retrySafe);
      if (retriable && attempt < this.retry.maxAttempts) {
        await response.body?.cancel();
        await this.sleep(this.delay(attempt, wait));
        continue;
      }
      throw await toError(response, sentId, wait);
    }
  }

  /** A streaming GET (server-sent events): the answer with its body unread, whatever its status; `signal` aborts it. */
  stream(path: string, headers: Record<string, string>, signal: AbortSignal): Promise<Response> {
    const all: Record<string, string> = { ...headers };
    if (this.apiKey) all.Authorization = `Bearer ${this.apiKey}`;
    return this.fetchFn(this.baseUrl + path, { method: "GET", headers: all, signal });
  }

  /** Waits as this transport waits between attempts (tests record the delays). */
  wait(ms: number): Promise<void> {
    return this.sleep(ms);
  }

  private delay(attempt: number, retryAfter: number | undefined): number {
    if (retryAfter !== undefined) return Math.min(Math.max(retryAfter, 0), this.retry.maxRetryAfterMs);
    const base = Math.min(this.retry.initialBackoffMs * 2 ** (attempt - 1), this.retry.maxBackoffMs);
    return base / 2 + (Math.random() * base) / 2;
  }

  private async once(request: HttpRequest): Promise<Response> {
    const headers: Record<string, string> = { Accept: "application/json", ...request.headers };
    if (this.apiKey) headers.Authorization = `Bearer ${this.apiKey}`;
    let body: string | undefined;
    if (typeof request.body === "string") {
      body = request.body;
      headers["Content-Type"] = request.contentType ?? "text/markdown";
    } else if (request.body !== undefined) {
      body = JSON.stringify(request.body);
      headers["Content-Type"] = request.contentType ?? "application/json";
    }
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new TimeoutError(this.timeoutMs)), this.timeoutMs);
    try {
      const response = await this.fetchFn(this.baseUrl + request.path + queryString(request.query), {
        method: request.method,
        headers,
        body,
        signal: controller.signal,
      });
      // read the body inside the timeout too: an answer cut off half-way is retried like a dropped one
      const bytes = await response.arrayBuffer();
      return new Response(response.status === 204 ? null : bytes, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    } finally {
      clearTimeout(timer);
    }
  }
}

class TimeoutError extends Error {
  constructor(ms: number) {
    super(`no answer within ${ms} ms`);
    this.name = "TimeoutError";
  }
}

function isTimeout(e: unknown): boolean {
  return e instanceof TimeoutError || (e instanceof Error && (e.name === "TimeoutError" || e.name === "AbortError"));
}

function describe(e: unknown): string {
  if (e instanceof Error) {
    const cause = (e as { cause?: unknown }).cause;
    return cause instanceof Error ? `${e.message} (${cause.message})` : e.message;
  }
  return String(e);
}

/** The typed error of an error answer (its JSON code, or its status for a proxy's page). */
export async function toError(response: Response, sentId: string | undefined, retryAfter: number | undefined)
  : Promise<MemoryChainError> {
  const text = await response.text();
  let data: unknown;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    data = undefined;
  }
  const headerId = response.headers.get("X-Request-Id") ?? undefined;
  const details = { status: response.status, retryAfter, body: data };
  if (isErrorBody(data)) {
    return errorFor(data.code, data.message ?? "", { ...details, requestId: data.request_id ?? headerId ?? sentId });
  }
  const code = CODE_OF_STATUS[response.status] ?? (response.status >= 500 ? "INTERNAL" : "INVALID_ARGUMENT");
  return errorFor(code, `HTTP ${response.status}: ${text.slice(0, 200)}`,
    { ...details, requestId: headerId ?? sentId });
}

function isErrorBody(data: unknown): data is { code: string; message?: string; request_id?: string } {
  return typeof data === "object" && data !== null && typeof (data as { code?: unknown }).code === "string";
}
