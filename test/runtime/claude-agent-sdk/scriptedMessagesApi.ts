// A Messages API on 127.0.0.1 that the SDK's bundled Claude Code binary talks to (ANTHROPIC_BASE_URL):
// the answer is read from the request, never from a counter, because the binary makes side requests.
// A request that offers tools and carries no tool result yet gets the scripted tool call; any other
// gets a text answer. Bounded: request bodies over 8 MiB are refused, and close() ends every socket.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/** The one tool call a run asks for, and the final text once its result came back. */
export interface Script {
  readonly toolName: string;
  readonly input: Record<string, unknown>;
  readonly finalText: string;
}

export interface ScriptedMessagesApi {
  readonly baseUrl: string;
  /** The tool results the binary sent back, in order (what the model would read). */
  readonly toolResults: unknown[];
  close(): Promise<void>;
}

const MAX_BODY = 8 * 1024 * 1024;

export async function startScriptedMessagesApi(script: Script): Promise<ScriptedMessagesApi> {
  const sockets = new Set<Socket>();
  const toolResults: unknown[] = [];
  const server = createServer((request, response) => void answer(request, response, script, toolResults));
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    toolResults,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

async function answer(request: IncomingMessage, response: ServerResponse, script: Script, toolResults: unknown[]): Promise<void> {
  const body = await readBody(request);
  if (body === null) return void response.writeHead(413).end();
  if (request.method !== "POST" || !request.url?.startsWith("/v1/messages")) return void response.writeHead(200, { "content-type": "application/json" }).end("{}");
  if (request.url.startsWith("/v1/messages/count_tokens")) return void json(response, { input_tokens: 10 });
  const parsed = JSON.parse(body) as { tools?: unknown[]; messages?: Array<{ content?: unknown }> };
  const results = (parsed.messages ?? []).flatMap((m) => (Array.isArray(m.content) ? m.content : [])).filter((part) => (part as { type?: string }).type === "tool_result");
  const offersTool = (parsed.tools ?? []).some((tool) => (tool as { name?: string }).name === script.toolName);
  if (offersTool && results.length === 0) return stream(response, [{ type: "tool_use", id: "toolu_scripted_1", name: script.toolName, input: script.input }], "tool_use");
  if (offersTool) toolResults.push(...results);
  stream(response, [{ type: "text", text: script.finalText }], "end_turn");
}

function readBody(request: IncomingMessage): Promise<string | null> {
  return new Promise((resolve) => {
    let size = 0;
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY) chunks.push(chunk);
    });
    request.on("end", () => resolve(size > MAX_BODY ? null : Buffer.concat(chunks).toString("utf8")));
    request.on("error", () => resolve(null));
  });
}

function json(response: ServerResponse, value: unknown): void {
  response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(value));
}

type Block = { type: "text"; text: string } | { type: "tool_use"; id: string; name: string; input: Record<string, unknown> };

/** One streamed message in the Messages API's server-sent events. */
function stream(response: ServerResponse, blocks: Block[], stopReason: string): void {
  response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const send = (event: string, data: unknown): boolean => response.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  const usage = { input_tokens: 10, output_tokens: 5 };
  send("message_start", { type: "message_start", message: { id: "msg_scripted", type: "message", role: "assistant", model: "claude-scripted", content: [], stop_reason: null, stop_sequence: null, usage } });
  blocks.forEach((block, index) => {
    if (block.type === "text") {
      send("content_block_start", { type: "content_block_start", index, content_block: { type: "text", text: "" } });
      send("content_block_delta", { type: "content_block_delta", index, delta: { type: "text_delta", text: block.text } });
    } else {
      send("content_block_start", { type: "content_block_start", index, content_block: { type: "tool_use", id: block.id, name: block.name, input: {} } });
      send("content_block_delta", { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) } });
    }
    send("content_block_stop", { type: "content_block_stop", index });
  });
  send("message_delta", { type: "message_delta", delta: { stop_reason: stopReason, stop_sequence: null }, usage });
  send("message_stop", { type: "message_stop" });
  response.end();
}
