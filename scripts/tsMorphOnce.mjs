// An esbuild plugin for the analyzer's bundles (the server's and `hooklens check`'s): every
// `import … from "ts-morph"` but one resolves to server/src/tsMorphValues.ts, which imports
// ts-morph's values once. ts-morph is CommonJS, and esbuild gives each module importing a CommonJS
// package its own copy of the package's exports (~540 getters for ts-morph, ~47 copies at every
// start). A value missing from that module fails the build.
import { join } from "node:path";

export function tsMorphOnce(root) {
  const shim = join(root, "server/src/tsMorphValues.ts");
  return {
    name: "ts-morph-once",
    setup(build) {
      build.onResolve({ filter: /^ts-morph$/ }, ({ importer }) => (importer === shim ? undefined : { path: shim }));
    },
  };
}
