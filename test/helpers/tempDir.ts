import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { onTestFinished } from "vitest";

/** A fresh folder under the OS temp dir (never inside the repository); `dispose()` removes it. */
export function createTempDir(prefix = "hooklens-test-"): { dir: string; path(name: string): string; dispose(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, path: (name) => join(dir, name), dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * A fresh folder (its real path) for the running test, removed when that test finishes, passed or
 * failed: every run of the suite used to leave such folders behind in the temp dir.
 */
export function testTempDir(prefix = "hooklens-test-"): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
