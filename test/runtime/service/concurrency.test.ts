import { afterEach, describe, expect, it } from "vitest";
import { EventStatus, globalHookLog, HookRegistry, HookTimeoutError, IModel, ScriptedEndpoint, type APICalling } from "@hooklens/runtime";
import { never } from "./support.js";

afterEach(() => globalHookLog.clear());

type Kind = "pass" | "pre-raises" | "pre-hangs" | "pre-rejects-late" | "post-exits";
const KINDS: Kind[] = ["pass", "pre-raises", "pre-hangs", "pre-rejects-late", "post-exits"];

describe("IModel under 1,000 concurrent invokes", () => {
  it("every call ends with the right status, timeouts fire, and nothing is left unhandled", async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      const registry = new HookRegistry({
        hooks: {
          pre_invoke: async (_event, params) => {
            await new Promise((resolve) => setImmediate(resolve));
            switch (params["kind"] as Kind) {
              case "pre-raises":
                throw new Error("denied");
              case "pre-hangs":
                return never();
              case "pre-rejects-late":
                await new Promise((resolve) => setTimeout(resolve, 150));
                throw new Error("too late to matter");
              default:
                return "ok";
            }
          },
          post_invoke: (_event, params) => {
            if (params["kind"] === "post-exits") throw new Error("post vetoed");
          },
        },
      });
      const model = new IModel({ endpoint: new ScriptedEndpoint({ script: ["pong"], latencyMs: 1 }), hookRegistry: registry });
      const calls: Promise<APICalling>[] = [];
      for (let i = 0; i < 1000; i++) {
        const kind = KINDS[i % KINDS.length]!;
        calls.push(
          model.invoke({
            messages: [{ role: "user", content: `ping ${i}` }],
            preInvokeEventHookParams: { kind },
            preInvokeEventHookTimeout: 0.1,
            postInvokeEventHookParams: { kind },
            postInvokeEventExitHook: kind === "post-exits",
          }),
        );
      }
      const results = await Promise.all(calls);
      // Give late rejections of abandoned handlers the time to surface.
      await new Promise((resolve) => setTimeout(resolve, 300));

      const byKind = new Map<Kind, APICalling[]>();
      results.forEach((call, i) => {
        const kind = KINDS[i % KINDS.length]!;
        byKind.set(kind, [...(byKind.get(kind) ?? []), call]);
      });
      for (const call of byKind.get("pass")!) {
        expect(call.status).toBe(EventStatus.COMPLETED);
        expect(call.usage?.completionTokens).toBe(1);
      }
      for (const call of byKind.get("pre-raises")!) {
        expect(call.status).toBe(EventStatus.FAILED);
        expect((call.execution.error as Error).message).toBe("Pre-invoke hook cancelled: denied");
      }
      for (const kind of ["pre-hangs", "pre-rejects-late"] as const) {
        for (const call of byKind.get(kind)!) {
          expect(call.status).toBe(EventStatus.FAILED);
          expect(call.preInvokeHookEvent!.exitCause).toBeInstanceOf(HookTimeoutError);
        }
      }
      for (const call of byKind.get("post-exits")!) {
        expect(call.status).toBe(EventStatus.FAILED);
        expect((call.execution.error as Error).message).toBe("post vetoed");
      }
      expect(new Set(results.map((call) => call.id)).size).toBe(1000);
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });
});
