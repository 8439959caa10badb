import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ALL_RULES } from "../../../server/src/analyzer/index.js";
import { DEFAULT_SETTINGS, ruleLevelSchema, settingsSchema } from "../../../server/src/config/ruleSettings.js";
import { REPO_ROOT } from "../../helpers/fixtureProject.js";

interface Property {
  default?: unknown;
  enum?: string[];
  description?: string;
  markdownDescription?: string;
  patternProperties?: Record<string, Property>;
}

const manifest = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { contributes: { configuration: { properties: Record<string, Property> } } };
const properties = manifest.contributes.configuration.properties;

// The extension's settings page and the server's parser must describe the same settings.
describe("the extension's settings match what the server reads", () => {
  it("declares every server setting, plus the client's trace setting, each with a description", () => {
    // hooklens.signals.* are the extension's own (the Signals view, the live socket, the timeline), never the server's.
    const serverSide = Object.keys(properties).filter((key) => !key.startsWith("hooklens.signals."));
    expect(serverSide.sort()).toEqual([...Object.keys(settingsSchema.shape).map((k) => `hooklens.${k}`), "hooklens.trace.server"].sort());
    for (const [key, property] of Object.entries(properties)) expect(property.description ?? property.markdownDescription, key).toBeTruthy();
  });

  it("has the server's defaults", () => {
    for (const [key, value] of Object.entries(DEFAULT_SETTINGS)) expect(properties[`hooklens.${key}`]!.default, key).toEqual(value);
    expect(properties["hooklens.trace.server"]!.default).toBe("off");
  });

  it("offers exactly the levels and run modes the server accepts, for every rule code", () => {
    const [pattern, level] = Object.entries(properties["hooklens.rules"]!.patternProperties!)[0]!;
    expect(level.enum).toEqual(ruleLevelSchema.options);
    expect(properties["hooklens.run"]!.enum).toEqual(settingsSchema.shape.run.options);
    for (const rule of ALL_RULES) expect(rule.code).toMatch(new RegExp(pattern));
  });
});
