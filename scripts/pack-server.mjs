// Runs before `npm pack` of the server package (its prepack script): the tarball carries the built
// bundles and the rule pages the diagnostics link to, so an `npm install -g` of it works without
// this repository or VS Code.
import { cpSync, existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
for (const bundle of ["server/dist/server.cjs", "server/dist/server-main.cjs", "server/dist/cli.cjs", "server/dist/check.cjs", "server/dist/launchOptions.cjs", "server/dist/typescript/lib/lib.es5.d.ts"]) {
  if (!existsSync(`${root}${bundle}`)) {
    console.error(`pack: ${bundle} is missing; run \`npm run build\` first`);
    process.exit(1);
  }
}
// The bundles look for docs/rules/ upwards from their own folder (server/src/docsLinks.ts).
cpSync(`${root}docs/rules`, `${root}server/dist/docs/rules`, { recursive: true });
