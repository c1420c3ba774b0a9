/**
 * Ready-made tools for OpenAI-style function calling: the service's agent tools (the same definitions as its MCP
 * tools), and a runner that executes a model's tool call through the service's MCP endpoint (tools/call).
 */
import { MemoryChainError, errorFor } from "./errors.js";
import type { MemoryChain } from "./client.js";
import { TOOL_DEFINITIONS } from "./tool-definitions.js";

export interface ToolDefinition {
  type: "function";
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/** A tool call as a chat-completions answer gives it (arguments as a JSON string or already parsed). */
export interface ToolCall {
  id?: string;
  function: { name: string; arguments: string | Record<string, unknown> };
}

export { TOOL_DEFINITIONS };

/** The tool definitions, optionally only some of them by name (e.g. ["memory_commit", "memory_recall"]). */
export function toolDefinitions(names?: readonly string[]): ToolDefinition[] {
  const all = TOOL_DEFINITIONS.map((t) => structuredClone(t) as ToolDefinition);
  if (!names) return all;
  const unknown = names.filter((n) => !all.some((t) => t.function.name === n));
  if (unknown.length) throw new TypeError(`unknown tool(s): ${unknown.join(", ")}`);
  return all.filter((t) => names.includes(t.function.name));
}

/** The definitions as the running service serves them now (GET /v1/tools). */
export async function fetchToolDefinitions(client: MemoryChain): Promise<ToolDefinition[]> {
  const response = await client.transport.send({ method: "GET", path: "/v1/tools" });
  return ((await response.json()) as { tools: ToolDefinition[] }).tools;
}

export interface RunToolOptions {
  /** The space when the model's arguments name none. */
  space?: string;
  /** The write's request id when the arguments carry none (default: a new UUID, the same on every retry). */
  idempotencyKey?: string;
}

/**
 * Runs one tool call and gives the tool's answer (parsed JSON, or the text): feed it back to the model as the tool
 * message. A refusal of the service is thrown as its typed error (e.g. UnknownBlockLabelError).
 */
export async function runTool(client: MemoryChain, call: ToolCall | { name: string; arguments: unknown },
  options: RunToolOptions = {}): Promise<unknown> {
  const fn = "function" in call ? call.function : call;
  const args: Record<string, unknown> = typeof fn.arguments === "string"
    ? (fn.arguments.trim() ? JSON.parse(fn.arguments) : {})
    : { ...(fn.arguments as Record<string, unknown> | undefined) };
  const definition = TOOL_DEFINITIONS.find((t) => t.function.name === fn.name);
  const takes = (name: string) =>
    Object.hasOwn((definition?.function.parameters.properties ?? {}) as object, name);
  if (options.space && args.space === undefined) args.space = options.space;
  if (takes("idempotency_key") && args.idempotency_key === undefined) {
    args.idempotency_key = options.idempotencyKey ?? crypto.randomUUID();
  }
  const response = await client.transport.send({
    method: "POST",
    path: "/mcp",
    headers: { Accept: "application/json, text/event-stream" },
    body: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: fn.name, arguments: args } },
  });
  const answer = (await response.json()) as {
    result?: { content?: { type: string; text?: string }[]; isError?: boolean };
    error?: { code: number; message: string; data?: unknown };
  };
  if (answer.error) {
    throw errorFor("INVALID_ARGUMENT", `${answer.error.message}${answer.error.data ? `: ${answer.error.data}` : ""}`,
      { status: response.status, body: answer.error });
  }
  const text = (answer.result?.content ?? []).filter((c) => c.type === "text").map((c) => c.text ?? "").join("");
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // a plain-text answer
  }
  if (answer.result?.isError) {
    const body = parsed as { code?: string; message?: string; request_id?: string };
    if (typeof body === "object" && body && typeof body.code === "string") {
      throw errorFor(body.code, body.message ?? "", { requestId: body.request_id, body });
    }
    throw new MemoryChainError("INVALID_ARGUMENT", text);
  }
  return parsed;
}
