import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { LIVE_ENV, Session, Signal, flushLive, type LiveFrame } from "@hooklens/runtime";
import { resetLiveForTests } from "../../../runtime/src/live/publisher.js";

let dir: string;
let server: net.Server;
let sockets: net.Socket[];
let frames: LiveFrame[];
let frameArrived: () => void = () => undefined;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "hooklens-live-"));
  const endpoint = join(dir, "live.sock");
  frames = [];
  sockets = [];
  server = net.createServer((socket) => {
    sockets.push(socket);
    let buffer = "";
    socket.on("data", (chunk) => {
      buffer += chunk.toString("utf8");
      for (let nl = buffer.indexOf("\n"); nl >= 0; nl = buffer.indexOf("\n")) {
        frames.push(JSON.parse(buffer.slice(0, nl)) as LiveFrame);
        buffer = buffer.slice(nl + 1);
        frameArrived();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(endpoint, resolve));
  process.env[LIVE_ENV] = `${endpoint}?token=${"ab".repeat(16)}`;
  resetLiveForTests();
});

afterEach(async () => {
  delete process.env[LIVE_ENV];
  resetLiveForTests();
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

async function signalFrames(count: number): Promise<Extract<LiveFrame, { type: "signal" }>[]> {
  await flushLive();
  const only = () => frames.filter((f): f is Extract<LiveFrame, { type: "signal" }> => f.type === "signal");
  while (only().length < count) await new Promise<void>((resolve) => (frameArrived = resolve));
  return only();
}

describe("live streaming of stored signals", () => {
  it("publishes each newly stored signal once, with session id, branch id, kind and JSON-safe payload", async () => {
    const session = new Session();
    const branch = session.newBranch();
    const signal = new Signal({ data: { step: 1 } });
    await branch.emit(signal);
    await branch.emit(signal);
    await session.emit("second");
    const [first, second] = await signalFrames(2);
    expect(first).toMatchObject({
      sessionId: session.id,
      branchId: branch.id,
      id: signal.id,
      kind: "Signal",
      payload: { data: { step: 1 } },
    });
    expect(second).toMatchObject({ branchId: null, payload: { data: "second" } });
    expect(frames.filter((f) => f.type === "signal")).toHaveLength(2);
  });

  it("publishes a GateDenied stored by authorize", async () => {
    const session = new Session();
    session.gate(() => false);
    await session.authorize({ function: "rm" });
    const [frame] = await signalFrames(1);
    expect(frame).toMatchObject({ kind: "GateDenied", payload: { data: { function: "rm" } } });
  });
});
