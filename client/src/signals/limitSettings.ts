import { DEFAULT_LIVE_SERVER_LIMITS, type LiveServerLimits } from "./liveServer.js";
import { DEFAULT_SIGNAL_STORE_LIMITS, type SignalStoreLimits } from "./signalStore.js";

/** One numeric limit the user can set: its key under `hooklens.signals`, default and allowed range. */
export interface LimitSetting {
  readonly key: string;
  readonly default: number;
  readonly minimum: number;
  readonly maximum: number;
}

/**
 * The live server's and the Signals view's bounds, as `hooklens.signals.*` settings. package.json
 * declares each with the same default, minimum and maximum (a test holds them together).
 */
export const LIMIT_SETTINGS = {
  helloTimeoutMs: { key: "live.helloTimeoutMs", default: DEFAULT_LIVE_SERVER_LIMITS.helloTimeoutMs, minimum: 500, maximum: 60_000 },
  maxConnections: { key: "live.maxConnections", default: DEFAULT_LIVE_SERVER_LIMITS.maxConnections, minimum: 1, maximum: 1_024 },
  maxPendingConnections: { key: "live.maxPendingConnections", default: DEFAULT_LIVE_SERVER_LIMITS.maxPendingConnections, minimum: 8, maximum: 4_096 },
  maxHelloBytes: { key: "live.maxHelloBytes", default: DEFAULT_LIVE_SERVER_LIMITS.maxHelloBytes, minimum: 1_024, maximum: 65_536 },
  maxLineBytes: { key: "live.maxLineBytes", default: DEFAULT_LIVE_SERVER_LIMITS.maxLineBytes, minimum: 4_096, maximum: 65_536 },
  maxRuns: { key: "maxRuns", default: DEFAULT_SIGNAL_STORE_LIMITS.maxRuns, minimum: 1, maximum: 10_000 },
  maxSessionsPerRun: { key: "maxSessionsPerRun", default: DEFAULT_SIGNAL_STORE_LIMITS.maxSessionsPerRun, minimum: 1, maximum: 100_000 },
  maxSignalsPerSession: { key: "maxSignalsPerSession", default: DEFAULT_SIGNAL_STORE_LIMITS.maxSignalsPerSession, minimum: 100, maximum: 1_000_000 },
  maxMegabytes: { key: "maxMegabytes", default: DEFAULT_SIGNAL_STORE_LIMITS.maxMegabytes, minimum: 1, maximum: 4_096 },
} as const satisfies Record<string, LimitSetting>;

/** The part of a VS Code `WorkspaceConfiguration` (for `hooklens.signals`) the reader needs. */
export interface SettingsSource {
  get<T>(key: string): T | undefined;
}

export interface LimitSettings {
  live: Required<LiveServerLimits>;
  store: Required<SignalStoreLimits>;
}

/** The limits in force: each setting when it is an integer in its range, its default otherwise. */
export function readLimitSettings(source: SettingsSource): LimitSettings {
  const read = (setting: LimitSetting): number => {
    const value = source.get<unknown>(setting.key);
    return typeof value === "number" && Number.isInteger(value) && value >= setting.minimum && value <= setting.maximum ? value : setting.default;
  };
  return {
    live: {
      helloTimeoutMs: read(LIMIT_SETTINGS.helloTimeoutMs),
      maxConnections: read(LIMIT_SETTINGS.maxConnections),
      maxPendingConnections: read(LIMIT_SETTINGS.maxPendingConnections),
      maxHelloBytes: read(LIMIT_SETTINGS.maxHelloBytes),
      maxLineBytes: read(LIMIT_SETTINGS.maxLineBytes),
    },
    store: {
      maxRuns: read(LIMIT_SETTINGS.maxRuns),
      maxSessionsPerRun: read(LIMIT_SETTINGS.maxSessionsPerRun),
      maxSignalsPerSession: read(LIMIT_SETTINGS.maxSignalsPerSession),
      maxMegabytes: read(LIMIT_SETTINGS.maxMegabytes),
    },
  };
}
