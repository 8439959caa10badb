import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";

/** The name of the nearest package.json above a folder, read from disk once per folder. */
export class PackageNames {
  readonly #byDir = new Map<string, string | null>();
  readonly #onLookup: (() => void) | undefined;

  /** `onLookup` is told of every folder looked up on disk (a cache miss). */
  constructor(onLookup?: () => void) {
    this.#onLookup = onLookup;
  }

  nameFor(dir: string): string | null {
    const cached = this.#byDir.get(dir);
    if (cached !== undefined) return cached;
    this.#onLookup?.();
    const manifest = join(dir, "package.json");
    let name: string | null;
    if (existsSync(manifest)) name = readName(manifest);
    else name = dirname(dir) === dir ? null : this.nameFor(dirname(dir));
    this.#byDir.set(dir, name);
    return name;
  }
}

function readName(manifest: string): string | null {
  try {
    const parsed: unknown = JSON.parse(readFileSync(manifest, "utf8"));
    return typeof parsed === "object" && parsed !== null && "name" in parsed && typeof parsed.name === "string" ? parsed.name : null;
  } catch {
    return null;
  }
}
