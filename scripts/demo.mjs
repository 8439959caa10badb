// `npm run demo`: runs the example agent with its signals recorded to a fresh SQLite file, prints
// what its session observer recorded, reads the session back from that file with the CLI, then
// shows what HookLens reports for the example's source.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const cli = join(root, "server/dist/cli.cjs");
const run = (title, args, env = {}) => {
  console.log(`\n=== ${title} ===\n`);
  const { status } = spawnSync(process.execPath, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
  return status;
};

// An empty file is enough to switch recording on (the runtime never creates one by itself).
const folder = mkdtempSync(join(tmpdir(), "hooklens-demo-"));
const recording = join(folder, "signals.db");
writeFileSync(recording, "");
try {
  const agentStatus = run("examples/agent.ts", ["--import", "tsx", "examples/agent.ts"], { HOOKLENS_DB: recording });
  const [session] = JSON.parse(execFileSync(process.execPath, [cli, "sessions", "--db", recording, "--format", "json"], { encoding: "utf8" }));
  if (session) run(`hooklens show ${session.sessionId} --db <temp>/signals.db`, [cli, "show", session.sessionId, "--db", recording]);
  run("hooklens check examples/agent.ts", [cli, "check", "examples/agent.ts"]);
  process.exitCode = agentStatus ?? 1;
} finally {
  rmSync(folder, { recursive: true, force: true });
}
