// The server's bundle ships TypeScript's library files beside it instead of inside it: ts-morph's
// common package embeds the text of every lib file (2.8 MB, the DOM's included), which made a
// quarter of the bundle and of its compile cache, read, decoded and hashed at every start. The
// plugin empties that list in the bundle and defines where the files are (shippedLib.ts), and
// writeShippedLib writes them there, as ts-morph has them.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

/** Beside the bundle: server/src/analyzer/engine/shippedLib.ts reads this folder (the path ends in typescript/lib/, as TypeScript's own does). */
export const SHIPPED_LIB = "typescript/lib";

export function shippedLibPlugin() {
  return {
    name: "shipped-lib",
    setup(build) {
      build.initialOptions.define = { ...build.initialOptions.define, __HOOKLENS_SHIPPED_LIB__: JSON.stringify(SHIPPED_LIB) };
      build.onLoad({ filter: /[\\/]@ts-morph[\\/]common[\\/]dist[\\/]ts-morph-common\.js$/ }, ({ path }) => {
        const text = readFileSync(path, "utf8");
        const start = text.indexOf("\nconst libFiles = [");
        const end = text.indexOf("\nfunction getLibFiles() {");
        if (start < 0 || end < start) throw new Error(`shipped-lib: ts-morph's embedded lib files not found in ${path}`);
        return { contents: `${text.slice(0, start)}\nconst libFiles = [];\n${text.slice(end)}`, loader: "js" };
      });
    },
  };
}

/** Writes ts-morph's lib files into `<dir>/typescript/lib`. */
export function writeShippedLib(root, dir) {
  const { getLibFiles } = createRequire(join(root, "package.json"))("@ts-morph/common");
  const folder = join(dir, SHIPPED_LIB);
  mkdirSync(folder, { recursive: true });
  for (const { fileName, text } of getLibFiles()) writeFileSync(join(folder, fileName), text);
}
