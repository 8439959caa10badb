import { describe, expect, it } from "vitest";
import { SettingsStore } from "../../../server/src/lsp/settings.js";

const URI = "file:///project/a.ts";

function store(options: { initializationOptions?: unknown; fetch?: (uri: string) => Promise<unknown> }) {
  const logs: string[] = [];
  return { logs, settings: new SettingsStore({ ...options, log: (m) => logs.push(m) }) };
}

describe("settings from any client, under the same keys", () => {
  it("uses the defaults when the client sends nothing", async () => {
    const { settings, logs } = store({});
    expect(await settings.forDocument(URI)).toEqual({ enable: true, rules: {}, run: "onType" });
    expect(logs).toEqual([]);
  });

  it.each([
    ["under hooklens (Helix's config, Neovim's settings)", { hooklens: { rules: { HL004: "off" }, run: "onSave" } }],
    ["as the section itself (Zed's initialization_options)", { rules: { HL004: "off" }, run: "onSave" }],
  ])("reads initializationOptions %s", async (_form, initializationOptions) => {
    const { settings } = store({ initializationOptions });
    expect(await settings.forDocument(URI)).toEqual({ enable: true, rules: { HL004: "off" }, run: "onSave" });
  });

  it("leaves the client's own keys (VS Code's hooklens.trace and hooklens.signals) to the client, without a word", async () => {
    const { settings, logs } = store({ fetch: async () => ({ trace: { server: "off" }, signals: { pageSize: 200, live: { maxConnections: 64 } }, run: "onSave" }) });
    expect(await settings.forDocument(URI)).toEqual({ enable: true, rules: {}, run: "onSave" });
    expect(logs).toEqual([]);
  });

  it("lets workspace/configuration override initializationOptions key by key, and rule by rule", async () => {
    const asked: string[] = [];
    const { settings } = store({
      initializationOptions: { hooklens: { rules: { HL004: "off", HL001: "error" }, run: "onSave" } },
      fetch: async (uri) => (asked.push(uri), { rules: { HL001: "hint" }, trace: { server: "verbose" } }),
    });
    expect(await settings.forDocument(URI)).toEqual({ enable: true, rules: { HL004: "off", HL001: "hint" }, run: "onSave" });
    await settings.forDocument(URI);
    expect(asked).toEqual([URI]);
  });

  it("takes the settings a didChangeConfiguration carries when the client cannot be asked", async () => {
    const { settings } = store({});
    settings.changed({ hooklens: { enable: false } });
    expect((await settings.forDocument(URI)).enable).toBe(false);
  });

  it("asks again after a change, and counts generations", async () => {
    let answer: unknown = { rules: { HL001: "off" } };
    const { settings } = store({ fetch: async () => answer });
    expect((await settings.forDocument(URI)).rules).toEqual({ HL001: "off" });
    answer = {};
    const generation = settings.generation;
    settings.changed(null);
    expect(settings.generation).toBe(generation + 1);
    expect((await settings.forDocument(URI)).rules).toEqual({});
  });

  it("reports an unknown key or a wrong type once, ignores it, and keeps the other keys", async () => {
    const { settings, logs } = store({ fetch: async () => ({ enable: "yes", colour: "red", rules: { HL001: "loud", HL002: "off", "no-code": "off" }, run: "onSave" }) });
    expect(await settings.forDocument(URI)).toEqual({ enable: true, rules: { HL002: "off" }, run: "onSave" });
    await settings.forDocument("file:///project/b.ts");
    expect(logs).toHaveLength(4);
    expect(logs.join("\n")).toMatch(/hooklens\.enable/);
    expect(logs.join("\n")).toMatch(/unknown setting "colour"/);
    expect(logs.join("\n")).toMatch(/hooklens\.rules\.HL001/);
    expect(logs.join("\n")).toMatch(/hooklens\.rules\.no-code/);
  });

  it("falls back to the other sources when the client fails to answer", async () => {
    const { settings, logs } = store({ initializationOptions: { run: "onSave" }, fetch: async () => Promise.reject(new Error("no")) });
    expect((await settings.forDocument(URI)).run).toBe("onSave");
    expect(logs).toEqual([expect.stringContaining("could not read the client's settings")]);
  });
});
