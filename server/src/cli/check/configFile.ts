import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { parseSettings, type RuleLevel } from "../../config/ruleSettings.js";

export const CONFIG_FILE_NAME = "hooklens.config.json";

/** A hooklens.config.json that cannot be used; the message names the file and the key. */
export class ConfigFileError extends Error {
  override name = "ConfigFileError";
}

export interface RuleConfig {
  /** The config file these levels come from; undefined when no file applies. */
  path: string | undefined;
  rules: Readonly<Record<string, RuleLevel>>;
}

const NO_CONFIG: RuleConfig = { path: undefined, rules: {} };

/**
 * Finds and reads `hooklens.config.json` files: for each checked file, the nearest one in its
 * folder or above; a file with none above it takes the one nearest the working folder. Each
 * folder is looked at once and each config file read once.
 */
export class RuleConfigLookup {
  readonly #byDir = new Map<string, RuleConfig | null>();
  readonly #fallback: RuleConfig;

  readonly #knownCodes: ReadonlySet<string>;

  constructor(cwd: string, knownCodes: Iterable<string>) {
    this.#knownCodes = new Set(knownCodes);
    this.#fallback = this.#nearest(resolve(cwd)) ?? NO_CONFIG;
  }

  /** The rule levels for a file; throws ConfigFileError when the applicable file is wrong. */
  forFile(file: string): RuleConfig {
    return this.#nearest(dirname(resolve(file))) ?? this.#fallback;
  }

  #nearest(dir: string): RuleConfig | null {
    const cached = this.#byDir.get(dir);
    if (cached !== undefined) return cached;
    const candidate = join(dir, CONFIG_FILE_NAME);
    const parent = dirname(dir);
    const found = existsSync(candidate) ? readConfigFile(candidate, this.#knownCodes) : parent === dir ? null : this.#nearest(parent);
    this.#byDir.set(dir, found);
    return found;
  }
}

/** Reads one config file: `{ "rules": { "HL004": "off", "HL001": "error" } }`, nothing else. */
export function readConfigFile(path: string, knownCodes: ReadonlySet<string>): RuleConfig {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new ConfigFileError(`${path}: not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new ConfigFileError(`${path}: expected an object such as { "rules": { "HL004": "off" } }`);
  }
  for (const key of Object.keys(parsed)) {
    if (key !== "rules") {
      throw new ConfigFileError(`${path}: unknown key "${key}": this file holds only "rules" (enable and run are editor settings)`);
    }
  }
  const { settings, problems } = parseSettings(parsed);
  if (problems.length > 0) throw new ConfigFileError(`${path}: ${problems.map((p) => `${p.key}: ${p.message}`).join("; ")}`);
  const unknown = Object.keys(settings.rules).filter((code) => !knownCodes.has(code));
  if (unknown.length > 0) throw new ConfigFileError(`${path}: rules.${unknown[0]}: no HookLens rule has the code ${unknown[0]} (known: ${[...knownCodes].join(", ")})`);
  return { path, rules: settings.rules };
}
