import { spawn } from "node:child_process";
import { REPO_ROOT } from "./fixtureProject.js";

export interface NodeRun {
  code: number | null;
  /** Set when the program was killed, as hung, after `hangMs`. */
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `node <args>` from the repository and resolves when it exits; a program still running after
 * `hangMs` is killed (SIGKILL), so a hang shows as `signal` rather than hanging the test.
 */
export function runNode(args: readonly string[], options: { hangMs: number; env?: NodeJS.ProcessEnv }): Promise<NodeRun> {
  const child = spawn(process.execPath, args, { cwd: REPO_ROOT, env: options.env ?? process.env });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const hang = setTimeout(() => child.kill("SIGKILL"), options.hangMs);
  return new Promise((resolve) =>
    child.on("exit", (code, signal) => {
      clearTimeout(hang);
      resolve({ code, signal, stdout, stderr });
    }),
  );
}
