import { z } from "zod";
import type { Finding, Severity } from "../analyzer/index.js";

/** What a user can set a rule to: a severity, or "off". */
export const ruleLevelSchema = z.enum(["error", "warning", "information", "hint", "off"]);
export type RuleLevel = z.infer<typeof ruleLevelSchema>;

const ruleCodeSchema = z.string().regex(/^HL\d{3}$/, "a rule code such as HL001");

/**
 * HookLens's settings, under the same keys in every editor (`hooklens.enable`, `hooklens.rules`,
 * `hooklens.run`) and, for `rules`, in the CLI's `hooklens.config.json`.
 */
export const settingsSchema = z.object({
  enable: z.boolean(),
  /** Per diagnostic code (`"HL004": "off"`); codes not listed keep their default severity. */
  rules: z.record(ruleCodeSchema, ruleLevelSchema),
  /** Analyse as you type, or only when the file is saved. */
  run: z.enum(["onType", "onSave"]),
});
export type Settings = z.infer<typeof settingsSchema>;

export const DEFAULT_SETTINGS: Settings = { enable: true, rules: {}, run: "onType" };

/** A setting that was ignored, and why, to be reported once. */
export interface SettingsProblem {
  key: string;
  message: string;
}

/**
 * Reads settings from anything a client or a config file hands over. Each key is checked on its
 * own: a wrong value keeps that key's default (and is reported), the other keys still apply;
 * unknown keys are reported and ignored.
 */
export function parseSettings(input: unknown): { settings: Settings; problems: SettingsProblem[] } {
  const settings: Settings = { ...DEFAULT_SETTINGS, rules: {} };
  const problems: SettingsProblem[] = [];
  if (input === undefined || input === null) return { settings, problems };
  if (typeof input !== "object" || Array.isArray(input)) {
    return { settings, problems: [{ key: "hooklens", message: `expected an object of settings, got ${describe(input)}` }] };
  }
  const shape = settingsSchema.shape;
  for (const [key, value] of Object.entries(input)) {
    if (!(key in shape)) {
      problems.push({ key, message: `unknown setting "${key}" (known: ${Object.keys(shape).join(", ")})` });
      continue;
    }
    if (key === "rules") {
      Object.assign(settings.rules, parseRules(value, problems));
      continue;
    }
    const parsed = shape[key as Exclude<keyof Settings, "rules">].safeParse(value);
    if (parsed.success) Object.assign(settings, { [key]: parsed.data });
    else problems.push({ key, message: `"${key}": ${parsed.error.issues[0]?.message ?? "invalid value"}; using the default` });
  }
  return { settings, problems };
}

function parseRules(value: unknown, problems: SettingsProblem[]): Record<string, RuleLevel> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    problems.push({ key: "rules", message: `"rules" must map rule codes to a level, got ${describe(value)}` });
    return {};
  }
  const rules: Record<string, RuleLevel> = {};
  for (const [code, level] of Object.entries(value)) {
    const parsedCode = ruleCodeSchema.safeParse(code);
    const parsedLevel = ruleLevelSchema.safeParse(level);
    if (!parsedCode.success) problems.push({ key: `rules.${code}`, message: `"${code}" is not a rule code such as HL001` });
    else if (!parsedLevel.success) problems.push({ key: `rules.${code}`, message: `"${code}" must be one of ${ruleLevelSchema.options.join(", ")}, got ${describe(level)}` });
    else rules[code] = parsedLevel.data;
  }
  return rules;
}

/** Findings with the user's levels applied: rules set to "off" dropped, others at their chosen severity. */
export function applyRuleLevels(findings: readonly Finding[], rules: Readonly<Record<string, RuleLevel>>): Finding[] {
  const result: Finding[] = [];
  for (const finding of findings) {
    const level = rules[finding.code];
    if (level === "off") continue;
    result.push(level === undefined ? finding : { ...finding, severity: level satisfies Severity });
  }
  return result;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "string" ? `"${value}"` : typeof value;
}
