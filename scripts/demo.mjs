// `npm run demo`: runs the example agent with its signals recorded to the project's SQLite file
// (.hooklens/signals.db, git-ignored), prints what its session observer recorded, reads the
// session back with the CLI, shows what HookLens reports for the example's source, and prints a
// run's OpenTelemetry span tree.
// Afterwards `npx hooklens sessions` and `npx hooklens show <id>` find the same recording.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const cli = join(root, "server/dist/cli.cjs");
const run = (title, args, env = {}) => {
  console.log(`\n=== ${title} ===\n`);
  const { status } = spawnSync(process.execPath, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
  return status;
};

// The runtime records to .hooklens/signals.db only when the file exists (it never creates one
// by itself), so an empty file switches recording on. Runs accumulate: each demo adds a session.
const recording = join(root, ".hooklens", "signals.db");
if (!existsSync(recording)) {
  mkdirSync(join(root, ".hooklens"), { recursive: true });
  writeFileSync(recording, "");
}
// HOOKLENS_DB would send the run elsewhere; the demo's point is the project's default file.
const { HOOKLENS_DB: _ignored, ...env } = process.env;
process.env = env;
const agentStatus = run("examples/agent.ts", ["--import", "tsx", "examples/agent.ts"]);
const sessions = JSON.parse(execFileSync(process.execPath, [cli, "sessions", "--format", "json"], { cwd: root, encoding: "utf8" }));
const newest = sessions.reduce((a, b) => (a && a.lastTs >= b.lastTs ? a : b), undefined);
if (newest) run(`npx hooklens show ${newest.sessionId}`, [cli, "show", newest.sessionId]);
run("npx hooklens check examples/agent.ts", [cli, "check", "examples/agent.ts"]);
// The same kind of run as OpenTelemetry spans, printed from the SDK's in-memory exporter: no tracing server needed.
run("examples/otel/spanTree.ts (OpenTelemetry spans, docs/runtime/otel.md)", ["--import", "tsx", "examples/otel/spanTree.ts"]);
console.log(`\nRecorded to .hooklens/signals.db: \`npx hooklens sessions\` lists every recorded run.`);
process.exitCode = agentStatus ?? 1;
