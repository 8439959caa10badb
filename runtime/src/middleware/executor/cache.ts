import type { ToolArguments } from "../calls.js";

/** Stores ok tool outputs by tool name and arguments; `get` returns undefined for a miss. Sync or async. */
export interface ToolCache {
  get(key: string): unknown | PromiseLike<unknown>;
  set(key: string, value: unknown): void | PromiseLike<void>;
}

/** An in-memory cache. Outputs that are `undefined` are never stored (they would read as a miss). */
export class MemoryToolCache implements ToolCache {
  readonly #entries = new Map<string, unknown>();

  get(key: string): unknown {
    return this.#entries.get(key);
  }

  set(key: string, value: unknown): void {
    if (value !== undefined) this.#entries.set(key, value);
  }

  get size(): number {
    return this.#entries.size;
  }
}

/** The cache key of a call: the tool name and its arguments as JSON with sorted keys. */
export function cacheKey(tool: string, args: ToolArguments): string {
  return `${tool} ${stableJson(args)}`;
}

function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v === null || typeof v !== "object" || Array.isArray(v)) return v;
    const sorted: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) sorted[k] = (v as Record<string, unknown>)[k];
    return sorted;
  });
}
