import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";

/**
 * Removes what test workers left in `dir` under names carrying their pid (`pidOf` finds it), once
 * they have ended: vitest ends its workers without an exit event, so a worker cannot clean up
 * after itself. Run at the end of a test run (test/setup/globalSetup.ts); a run's own leftovers go
 * at the next, while their workers may still be winding down.
 */
export function removeLeftByEndedWorkers(dir: string, pidOf: (name: string) => number | undefined): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return; // nothing made there yet
  }
  for (const name of names) {
    const pid = pidOf(name);
    if (pid && !isRunning(pid)) rmSync(join(dir, name), { recursive: true, force: true });
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
