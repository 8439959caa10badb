// The e2e suite tests what users install: the packaged .vsix, built by `npm run package` and
// installed into the run's own VS Code profile with code-server's own installer.
import { execFileSync } from "node:child_process";
import { mkdirSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

const require = createRequire(import.meta.url);
const { NODE24, codeServerArgs } = require("./toolchain.cjs");

/** The Marketplace takes bigger packages, but ours has no reason to grow past this. */
export const MAX_VSIX_BYTES = 10 * 1024 * 1024;

/** Runs `npm run package` (production build + vsce) and returns the .vsix path and size; throws when it is too big. */
export function packageExtension(root) {
  execFileSync("npm", ["run", "package"], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
  const path = join(root, "dist/hooklens.vsix");
  const bytes = statSync(path).size;
  if (bytes >= MAX_VSIX_BYTES) throw new Error(`${path} is ${bytes} bytes, over the ${MAX_VSIX_BYTES}-byte limit`);
  return { path, bytes };
}

/** Installs `vsix` into the profile's extensions folder, as `code --install-extension` would. */
export function installExtension(vsix, { userDataDir, extensionsDir }) {
  mkdirSync(userDataDir, { recursive: true });
  const config = join(userDataDir, "code-server.yaml");
  writeFileSync(config, "auth: none\ncert: false\n");
  execFileSync(NODE24, [...codeServerArgs({ config, userDataDir, extensionsDir }), "--install-extension", vsix], {
    stdio: ["ignore", "ignore", "inherit"],
  });
}
