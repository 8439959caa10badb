import { parseSettings, type Settings } from "../config/ruleSettings.js";

/** The configuration section every client is asked for, and the key settings sit under elsewhere. */
export const SETTINGS_SECTION = "hooklens";

/** Keys of the section that belong to the client (VS Code's `hooklens.trace.server` and `hooklens.signals.*`), not to the server. */
const CLIENT_SIDE_KEYS = new Set(["trace", "signals"]);

/** Asks the client for the `hooklens` section as it applies to one document (workspace/configuration). */
export type ConfigurationFetch = (documentUri: string) => Promise<unknown>;

/**
 * The settings in force for each document. Sources, later ones winning key by key: the defaults,
 * `initializationOptions`, then either the client's answer to workspace/configuration (clients that
 * support it are asked per document, so folder settings apply) or the settings a
 * workspace/didChangeConfiguration notification carried. Each source may hold the keys directly or
 * under `hooklens`. A wrong key or value is logged once for the server's lifetime and ignored.
 */
export class SettingsStore {
  readonly #log: (message: string) => void;
  readonly #fetch: ConfigurationFetch | undefined;
  readonly #initial: Record<string, unknown>;
  #pushed: Record<string, unknown> = {};
  readonly #perDocument = new Map<string, Promise<Settings>>();
  readonly #reported = new Set<string>();
  #generation = 0;

  constructor(options: { initializationOptions?: unknown; fetch?: ConfigurationFetch | undefined; log: (message: string) => void }) {
    this.#log = options.log;
    this.#fetch = options.fetch;
    this.#initial = sectionOf(options.initializationOptions);
  }

  /** The settings for a document; asks the client at most once per document until the next change. */
  forDocument(uri: string): Promise<Settings> {
    let settings = this.#perDocument.get(uri);
    if (!settings) {
      settings = this.#resolve(uri);
      this.#perDocument.set(uri, settings);
    }
    return settings;
  }

  /** The configuration changed: forget what was resolved; `pushed` is what the notification carried. */
  changed(pushed: unknown): void {
    this.#generation++;
    this.#pushed = this.#fetch ? {} : sectionOf(pushed);
    this.#perDocument.clear();
  }

  /** The document was closed: its settings are asked again if it reopens. */
  forget(uri: string): void {
    this.#perDocument.delete(uri);
  }

  /** Increases with every configuration change, so callers can tell a result computed under older settings. */
  get generation(): number {
    return this.#generation;
  }

  async #resolve(uri: string): Promise<Settings> {
    let fetched: Record<string, unknown> = {};
    if (this.#fetch) {
      try {
        fetched = sectionOf(await this.#fetch(uri));
      } catch (error) {
        this.#report(`could not read the client's settings (${error instanceof Error ? error.message : String(error)}); using the others`);
      }
    }
    const merged = merge(merge(this.#initial, this.#pushed), fetched);
    const { settings, problems } = parseSettings(merged);
    for (const problem of problems) this.#report(`ignored setting ${SETTINGS_SECTION}.${problem.key}: ${problem.message}`);
    return settings;
  }

  #report(message: string): void {
    if (this.#reported.has(message)) return;
    this.#reported.add(message);
    this.#log(`HookLens: ${message}`);
  }
}

/** The settings object inside what a client sent: under `hooklens` when present, else the object itself. */
function sectionOf(value: unknown): Record<string, unknown> {
  if (!isObject(value)) return {};
  const section = SETTINGS_SECTION in value ? value[SETTINGS_SECTION] : value;
  if (!isObject(section)) return {};
  return Object.fromEntries(Object.entries(section).filter(([key]) => !CLIENT_SIDE_KEYS.has(key)));
}

/** Later keys win; `rules` merges code by code so one source can turn off a single rule. */
function merge(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const merged = { ...base, ...over };
  if (isObject(base["rules"]) && isObject(over["rules"])) merged["rules"] = { ...base["rules"], ...over["rules"] };
  return merged;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
