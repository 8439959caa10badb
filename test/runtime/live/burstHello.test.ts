// A program in a long burst that never yields a macrotask cannot answer the editor: the editor
// closes connections that send no hello within a few seconds. The runtime connects only once
// the program yields, so the hello goes out at once and the burst's signals (or their drop
// count) reach the editor.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { LIVE_ENV, type LiveFrame } from "@hooklens/runtime";
import { LiveServer } from "../../../client/src/signals/liveServer.js";
import { REPO_ROOT } from "../../helpers/fixtureProject.js";
import { bundledFixture } from "../../helpers/bundledFixture.js";

const STREAMER = fileURLToPath(new URL("./fixtures/streamSignals.mts", import.meta.url));
let server: LiveServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

describe("a burst longer than the editor's hello timeout", () => {
  it("still greets the editor, which gets every signal or a dropped count for it", async () => {
    const frames: LiveFrame[] = [];
    let closed!: () => void;
    const disconnected = new Promise<void>((resolve) => (closed = resolve));
    // The emitting loop below runs for at least 1.5 s, five times this timeout.
    server = await LiveServer.start({ onFrame: (_peer, frame) => frames.push(frame), onDisconnect: () => closed() }, { helloTimeoutMs: 300 });
    const child = spawn(process.execPath, [bundledFixture(STREAMER), "1500", "burst"], {
      cwd: REPO_ROOT,
      env: { ...process.env, [LIVE_ENV]: server.environmentValue, HOOKLENS_LIVE_DRAIN_MS: "20000" },
    });
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    expect(await new Promise((resolve) => child.on("exit", resolve))).toBe(0);
    await disconnected;
    const emitted = Number(/emitted (\d+)/.exec(stdout)?.[1]);
    expect(emitted).toBeGreaterThan(0);
    expect(server.stats.helloTimeouts).toBe(0);
    expect(frames[0]?.type).toBe("hello");
    const signals = frames.filter((frame) => frame.type === "signal").length;
    const dropped = frames.reduce((sum, frame) => sum + (frame.type === "dropped" ? frame.count : 0), 0);
    expect(signals + dropped).toBe(emitted);
    expect(frames.at(-1)).toEqual({ type: "bye" });
  }, 120_000);
});
