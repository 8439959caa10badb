import { existsSync } from "node:fs";
import { join } from "node:path";

/**
 * Set by scripts/build.mjs in the server's bundle, whose copy of ts-morph no longer embeds the
 * text of every TypeScript library file (2.8 MB of the bundle, the DOM's included, read, decoded,
 * hashed and held in the compile cache at every start): the files are shipped in this folder
 * beside the bundle and ts-morph reads the few a program needs. Undefined elsewhere (sources,
 * other bundles), where ts-morph's embedded copies serve.
 */
declare const __HOOKLENS_SHIPPED_LIB__: string | undefined;

/** The folder of the TypeScript library files for ts-morph (`libFolderPath`), or undefined to use its embedded ones. */
export function shippedLibFolder(): string | undefined {
  if (typeof __HOOKLENS_SHIPPED_LIB__ === "undefined") return undefined;
  const folder = join(__dirname, __HOOKLENS_SHIPPED_LIB__);
  if (!existsSync(join(folder, "lib.es5.d.ts"))) throw new Error(`HookLens: TypeScript's library files are missing beside the server (${folder})`);
  return folder;
}
