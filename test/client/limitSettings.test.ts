import { readFileSync } from "node:fs";
import net from "node:net";
import { describe, expect, it } from "vitest";
import { LIMIT_SETTINGS, readLimitSettings, type SettingsSource } from "../../client/src/signals/limitSettings.js";
import { DEFAULT_LIVE_SERVER_LIMITS, LiveServer } from "../../client/src/signals/liveServer.js";
import { DEFAULT_SIGNAL_STORE_LIMITS } from "../../client/src/signals/signalStore.js";

interface DeclaredSetting {
  type: string;
  default: number;
  minimum: number;
  maximum: number;
  markdownDescription?: string;
  description?: string;
}

const manifest = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
  contributes: { configuration: { properties: Record<string, DeclaredSetting> } };
};

/** Settings as VS Code's configuration for `hooklens.signals` hands them over: by key, absent when unset. */
const settings = (values: Record<string, unknown>): SettingsSource => ({ get: <T>(key: string) => values[key] as T | undefined });

describe("limit settings", () => {
  it.each(Object.values(LIMIT_SETTINGS))("package.json declares hooklens.signals.$key with its default, range and a description", (setting) => {
    const declared = manifest.contributes.configuration.properties[`hooklens.signals.${setting.key}`];
    expect(declared).toMatchObject({ type: "integer", default: setting.default, minimum: setting.minimum, maximum: setting.maximum });
    expect((declared?.markdownDescription ?? declared?.description ?? "").length).toBeGreaterThan(40);
  });

  it("defaults are the live server's and the store's own", () => {
    expect(readLimitSettings(settings({}))).toEqual({ live: DEFAULT_LIVE_SERVER_LIMITS, store: DEFAULT_SIGNAL_STORE_LIMITS });
  });

  it("reads every setting, and keeps the default for a value that is not an integer in range", () => {
    const read = readLimitSettings(
      settings({
        "live.helloTimeoutMs": 1_500,
        "live.maxConnections": 2,
        "live.maxPendingConnections": 3,
        "live.maxHelloBytes": "8k",
        "live.maxLineBytes": 1e9,
        maxRuns: 7,
        maxSessionsPerRun: 2.5,
        maxSignalsPerSession: 5_000,
        maxMegabytes: 0,
      }),
    );
    expect(read.live).toEqual({
      helloTimeoutMs: 1_500,
      maxConnections: 2,
      maxPendingConnections: DEFAULT_LIVE_SERVER_LIMITS.maxPendingConnections,
      maxHelloBytes: DEFAULT_LIVE_SERVER_LIMITS.maxHelloBytes,
      maxLineBytes: DEFAULT_LIVE_SERVER_LIMITS.maxLineBytes,
    });
    expect(read.store).toEqual({ maxRuns: 7, maxSessionsPerRun: DEFAULT_SIGNAL_STORE_LIMITS.maxSessionsPerRun, maxSignalsPerSession: 5_000, maxMegabytes: DEFAULT_SIGNAL_STORE_LIMITS.maxMegabytes });
  });

  it("a live server built from the settings enforces them: a silent connection is closed after the set hello timeout", async () => {
    const { live: limits } = readLimitSettings(settings({ "live.helloTimeoutMs": 500, "live.maxConnections": 1 }));
    const server = await LiveServer.start({ onFrame: () => undefined }, limits);
    try {
      expect(server.limits).toMatchObject({ helloTimeoutMs: 500, maxConnections: 1 });
      const socket = net.createConnection(server.endpoint);
      socket.on("error", () => undefined);
      await new Promise<void>((resolve) => socket.once("close", () => resolve()));
      expect(server.stats.helloTimeouts).toBe(1);
    } finally {
      await server.close();
    }
  });
});
