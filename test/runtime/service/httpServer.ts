// A real HTTP server on 127.0.0.1 for endpoint tests: each test gives a route handler and reads
// back what the server received. No fetch mocks anywhere.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
  json: unknown;
}

export type Route = (req: ReceivedRequest, res: ServerResponse) => void | Promise<void>;

export interface TestServer {
  baseUrl: string;
  requests: ReceivedRequest[];
  /** Resolves when the server saw a client close its connection early. */
  clientClosed: Promise<void>;
  close(): Promise<void>;
}

export async function startServer(route: Route): Promise<TestServer> {
  const requests: ReceivedRequest[] = [];
  let markClosed: () => void = () => {};
  const clientClosed = new Promise<void>((resolve) => (markClosed = resolve));
  const server: Server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on("data", (part: Buffer) => parts.push(part));
    req.on("end", () => {
      const body = Buffer.concat(parts).toString("utf8");
      let json: unknown = null;
      try {
        json = JSON.parse(body);
      } catch {
        json = null;
      }
      const received = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body, json };
      requests.push(received);
      res.on("close", () => {
        if (!res.writableFinished) markClosed();
      });
      Promise.resolve(route(received, res)).catch((error: unknown) => {
        res.destroy(error instanceof Error ? error : new Error(String(error)));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    clientClosed,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

/** Starts an SSE response and returns a writer for `data:` events. */
export function openEventStream(res: ServerResponse): (data: string) => void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  return (data: string) => res.write(`data: ${data}\n\n`);
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A chat.completion.chunk carrying one piece of text. */
export function textChunk(content: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ object: "chat.completion.chunk", choices: [{ index: 0, delta: { content }, finish_reason: null }], ...extra });
}
