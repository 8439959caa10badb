// Runs every test/bench/*.bench.ts (each exports `run(): Promise<string>` printing its table).
import { readdirSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { register } from "tsx/esm/api";

register();
const here = fileURLToPath(new URL(".", import.meta.url));
const only = process.argv[2];
for (const file of readdirSync(here).filter((f) => f.endsWith(".bench.ts")).sort()) {
  if (only && !file.includes(only)) continue;
  const mod = await import(pathToFileURL(`${here}${file}`).href);
  console.log(await mod.run());
}
