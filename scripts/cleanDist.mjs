// Empties the build output folder before a build, except the packaged extension (`*.vsix`):
// `npm run build` (and so `npm run demo`) must not delete what `npm run package` made.
import { existsSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";

export function cleanDist(folder) {
  if (!existsSync(folder)) return;
  for (const name of readdirSync(folder)) {
    if (!name.endsWith(".vsix")) rmSync(join(folder, name), { recursive: true, force: true });
  }
}
