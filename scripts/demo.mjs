// `npm run demo`: runs the example agent, prints what its session observer recorded, then what
// HookLens reports for the example's source.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const run = (title, command, args) => {
  console.log(`\n=== ${title} ===\n`);
  const { status } = spawnSync(command, args, { cwd: root, stdio: "inherit" });
  return status;
};

const agentStatus = run("examples/agent.ts", process.execPath, ["--import", "tsx", "examples/agent.ts"]);
run("hooklens check examples/agent.ts", process.execPath, ["server/dist/cli.cjs", "check", "examples/agent.ts"]);
process.exit(agentStatus ?? 1);
