// No code change: a program that only uses AI SDK 7, started with the register entry preloaded
// and HOOKLENS_LIVE set (as the editor's terminals are), streams its calls to a real socket.
import { spawn } from "node:child_process";
import net from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, expect, it } from "vitest";
import { LIVE_ENV, liveFrameSchema, type LiveFrame } from "@hooklens/runtime/live";
import { bundledFixture } from "../../helpers/bundledFixture.js";
import { testTempDir } from "../../helpers/tempDir.js";

const REGISTER = fileURLToPath(new URL("../../../runtime/src/ai-sdk/register.ts", import.meta.url));
const PROGRAM = fileURLToPath(new URL("./fixtures/plainAiProgram.mjs", import.meta.url));
const TOKEN = "cd".repeat(16);

let server: net.Server | null = null;
afterEach(async () => {
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = null;
});

it("a program using only the AI SDK shows its operations, steps, model calls and tool executions live", async () => {
  const endpoint = join(testTempDir(), "live.sock");
  let received = "";
  const closed = new Promise<void>((resolve) => {
    server = net.createServer((socket) => {
      socket.on("data", (chunk: Buffer) => (received += chunk.toString()));
      socket.once("close", () => resolve());
    });
  });
  await new Promise<void>((resolve) => server!.listen(endpoint, resolve));

  const child = spawn(process.execPath, ["--import", bundledFixture(REGISTER), PROGRAM], { env: { ...process.env, [LIVE_ENV]: `${endpoint}?token=${TOKEN}` } });
  let stdout = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  const exitCode = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  await closed;

  expect([exitCode, stdout.trim()]).toEqual([0, "cold hi"]);
  const frames = received.trim().split("\n").map((line) => liveFrameSchema.parse(JSON.parse(line)) as LiveFrame);
  expect(frames[0]).toMatchObject({ type: "hello", token: TOKEN });
  expect(frames.at(-1)).toEqual({ type: "bye" });
  const signals = frames.flatMap((frame) => (frame.type === "signal" ? [frame] : []));
  const calls = signals.filter((s) => s.kind === "ModelCallStarted").map((s) => (s.payload as { request: { operation: string } }).request.operation);
  expect(calls).toEqual(["generateText", "step", "languageModelCall", "step", "languageModelCall", "streamText", "step", "languageModelCall"]);
  expect(signals.filter((s) => s.kind === "ToolCallFinished").map((s) => s.payload)).toEqual([expect.objectContaining({ toolName: "weather", status: "ok", result: "Oslo: -3°C" })]);
  expect(new Set(signals.map((s) => s.sessionId)).size).toBe(1);
});
