import { describe, expect, it } from "vitest";
import { parseServerSentEvents, type ServerSentEvent } from "@hooklens/runtime";

async function parse(...parts: string[]): Promise<ServerSentEvent[]> {
  const encoder = new TextEncoder();
  async function* bytes(): AsyncGenerator<Uint8Array> {
    for (const part of parts) yield encoder.encode(part);
  }
  const out: ServerSentEvent[] = [];
  for await (const event of parseServerSentEvents(bytes())) out.push(event);
  return out;
}

describe("parseServerSentEvents", () => {
  it("reads one event per blank-line-terminated block", async () => {
    expect(await parse("data: a\n\ndata: b\n\n")).toEqual([
      { event: "message", data: "a" },
      { event: "message", data: "b" },
    ]);
  });

  it("joins multi-line data with newlines", async () => {
    expect(await parse("data: line one\ndata: line two\n\n")).toEqual([{ event: "message", data: "line one\nline two" }]);
  });

  it("accepts CRLF and lone CR line endings, even split across reads", async () => {
    expect(await parse("data: a\r", "\n\r\n", "data: b\r\r")).toEqual([
      { event: "message", data: "a" },
      { event: "message", data: "b" },
    ]);
  });

  it("joins an event split across reads in the middle of a line", async () => {
    expect(await parse('data: {"par', 'tial": true}\n', "\n")).toEqual([{ event: "message", data: '{"partial": true}' }]);
  });

  it("skips comments and events without data, and reads event names", async () => {
    expect(await parse(": keep-alive\n\nevent: error\ndata: x\n\nevent: ping\n\n")).toEqual([{ event: "error", data: "x" }]);
  });

  it("keeps the value after the first colon, removing one leading space", async () => {
    expect(await parse("data:  two spaces: and a colon\n\n")).toEqual([{ event: "message", data: " two spaces: and a colon" }]);
  });

  it("dispatches a last event that lacks its closing blank line", async () => {
    expect(await parse("data: last")).toEqual([{ event: "message", data: "last" }]);
  });

  it("decodes multi-byte characters split across reads", async () => {
    const bytes = new TextEncoder().encode("data: héllo\n\n");
    async function* split(): AsyncGenerator<Uint8Array> {
      yield bytes.slice(0, 8);
      yield bytes.slice(8);
    }
    const out: ServerSentEvent[] = [];
    for await (const event of parseServerSentEvents(split())) out.push(event);
    expect(out).toEqual([{ event: "message", data: "héllo" }]);
  });
});
