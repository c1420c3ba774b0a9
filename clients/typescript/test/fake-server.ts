/** A scripted HTTP server on a free loopback port: answers the queued replies in order and records every request. */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface Reply {
  status?: number;
  body?: unknown; // object: JSON; string: text
  headers?: Record<string, string>;
  delayMs?: number; // answer late (the client times out)
  drop?: boolean; // close the connection without an answer
}

export interface Seen {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  body: string;
  json(): unknown;
}

export class FakeServer {
  readonly requests: Seen[] = [];
  private readonly replies: Reply[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private server?: Server;
  url = "";

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const body = Buffer.concat(chunks).toString("utf8");
        this.requests.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers, body,
          json: () => (body ? JSON.parse(body) : undefined) });
        const reply = this.replies.shift() ?? { status: 500, body: { code: "INTERNAL", message: "no reply queued" } };
        const answer = () => {
          if (reply.drop) {
            req.socket.destroy();
            return;
          }
          const isJson = typeof reply.body === "object" && reply.body !== null;
          const data = reply.body === undefined ? "" : isJson ? JSON.stringify(reply.body) : String(reply.body);
          const headers: Record<string, string> = { ...(isJson ? { "Content-Type": "application/json" } : {}),
            ...reply.headers };
          res.writeHead(reply.status ?? 200, headers);
          res.end(data);
        };
        if (reply.delayMs) {
          const timer = setTimeout(() => { this.timers.delete(timer); if (!res.destroyed) answer(); }, reply.delayMs);
          this.timers.add(timer);
        } else {
          answer();
        }
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  queue(...replies: Reply[]): void {
    this.replies.push(...replies);
  }

  clear(): void {
    this.replies.length = 0;
  }

  async stop(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}
