// The exported StreamHandler type must say what dispatch really passes. These assertions are
// checked by `npm run typecheck`; the runtime test pins the same arity.
import { describe, expect, expectTypeOf, it } from "vitest";
import { HookRegistry, type StreamHandler } from "@hooklens/runtime";

describe("StreamHandler type", () => {
  it("is (event: null, chunkType: string, chunk: unknown, params: Record<string, unknown>) => unknown", () => {
    expectTypeOf<StreamHandler>().toEqualTypeOf<(event: null, chunkType: string, chunk: unknown, params: Record<string, unknown>) => unknown>();
    expectTypeOf<Parameters<StreamHandler>>().toEqualTypeOf<[event: null, chunkType: string, chunk: unknown, params: Record<string, unknown>]>();
  });

  it("matches the four arguments dispatch passes", async () => {
    let arity = -1;
    const handler: StreamHandler = (...args) => void (arity = args.length);
    await new HookRegistry({ streamHandlers: { String: handler } }).handleStreamingChunk("String", "x");
    expect(arity).toBe(4);
  });
});
