import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A fresh folder under the OS temp dir (never inside the repository); `dispose()` removes it. */
export function createTempDir(prefix = "hooklens-test-"): { dir: string; path(name: string): string; dispose(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, path: (name) => join(dir, name), dispose: () => rmSync(dir, { recursive: true, force: true }) };
}
