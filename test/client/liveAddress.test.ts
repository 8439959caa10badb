import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { LiveConnection, parseLiveEnv, type SignalFrame } from "@hooklens/runtime/live";
import { newLiveToken, stableLiveAddress } from "../../client/src/signals/liveAddress.js";
import { LiveServer } from "../../client/src/signals/liveServer.js";
import { SignalStore } from "../../client/src/signals/signalStore.js";
import { untilStore } from "./storeChanges.js";

// A window reload starts a new live server; terminals opened before it keep their HOOKLENS_LIVE.
// The workspace's stable address (same folder, same token) makes that value reach the new server.

const parents: string[] = [];
const servers: LiveServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
  for (const parent of parents.splice(0)) rmSync(parent, { recursive: true, force: true });
});

function parent(): string {
  const folder = mkdtempSync(join(tmpdir(), "hl-addr-"));
  parents.push(folder);
  return folder;
}

async function serve(address: ReturnType<typeof stableLiveAddress>): Promise<{ live: LiveServer; store: SignalStore }> {
  const store = new SignalStore();
  const live = await LiveServer.start({ onFrame: (peer, frame, bytes) => store.handleFrame(peer, frame, bytes) }, {}, address);
  servers.push(live);
  return { live, store };
}

const signal: SignalFrame = { type: "signal", sessionId: "s", branchId: null, id: "1", kind: "HookSignal", createdAt: 1_700_000_000, payload: {} };

describe("the workspace's stable live address", () => {
  it("is the same for the same workspace and differs between workspaces", () => {
    const root = parent();
    const token = newLiveToken();
    expect(stableLiveAddress("file:///a", token, root).endpoint).toBe(stableLiveAddress("file:///a", token, root).endpoint);
    expect(stableLiveAddress("file:///a", token, root).endpoint).not.toBe(stableLiveAddress("file:///b", token, root).endpoint);
  });

  it("a HOOKLENS_LIVE value from before the reload reaches the server started after it", async () => {
    const root = parent();
    const token = newLiveToken();
    const before = await serve(stableLiveAddress("file:///ws", token, root));
    const oldValue = before.live.environmentValue;
    await before.live.close();
    servers.splice(servers.indexOf(before.live), 1);
    const after = await serve(stableLiveAddress("file:///ws", token, root));
    expect(after.live.environmentValue).toBe(oldValue);
    const program = new LiveConnection(parseLiveEnv(oldValue)!, "old terminal");
    program.send(signal);
    await untilStore(after.store, () => after.store.signalCount() === 1);
    await program.close();
  });

  it("takes over a socket file a killed window left behind, and says so", async () => {
    const root = parent();
    const address = stableLiveAddress("file:///killed", newLiveToken(), root);
    // A process that listens there and dies without closing leaves the socket file.
    const child = spawn(process.execPath, ["-e", `require("node:net").createServer().listen(${JSON.stringify(address.endpoint)}, () => console.log("up"))`]);
    await new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
    child.kill("SIGKILL");
    await new Promise<void>((resolve) => child.once("exit", () => resolve()));
    expect(existsSync(address.endpoint)).toBe(true);
    const { live } = await serve(address);
    expect(live.tookOver).toBe(true);
  });

  it("never takes over a socket another server still answers", async () => {
    const address = stableLiveAddress("file:///twice", newLiveToken(), parent());
    const first = await serve(address);
    await expect(LiveServer.start({ onFrame: () => undefined }, {}, address)).rejects.toThrow(/EADDRINUSE/);
    expect(first.live.tookOver).toBe(false);
  });

  it.each([
    ["open to other users", (folder: string) => (mkdirSync(folder), chmodSync(folder, 0o755)), /open to other users/],
    ["a symbolic link", (folder: string) => symlinkSync(parent(), folder), /not a folder/],
  ])("refuses a folder that is %s", (_what, make, message) => {
    const root = parent();
    const probe = stableLiveAddress("file:///probe", newLiveToken(), root);
    rmSync(probe.folder!, { recursive: true });
    make(probe.folder!);
    expect(() => stableLiveAddress("file:///probe", newLiveToken(), root)).toThrow(message);
  });

  it("keeps its folder when closed (the next window uses it); the socket file goes", async () => {
    const address = stableLiveAddress("file:///kept", newLiveToken(), parent());
    const { live } = await serve(address);
    await live.close();
    servers.splice(servers.indexOf(live), 1);
    expect(existsSync(address.folder!)).toBe(true);
    expect(existsSync(address.endpoint)).toBe(false);
  });
});
