// The command's arguments, for runs without UI (tests, keybindings): validated, with messages
// that say what to fix.
import { z } from "zod";
import { identifierProblem } from "./identifier.js";
import {
  DEFAULT_MIDDLEWARE_PHASES,
  HOOK_POINTS,
  HOOK_POINT_VALUES,
  LIVE_HOOK_POINTS,
  MIDDLEWARE_PHASES,
  SCAFFOLD_KINDS,
  SERVICE_PHASES,
  type HookPointValue,
} from "./kinds.js";
import type { TemplateOptions } from "./templates/index.js";

const name = z.string({ error: "must be a string" }).check((ctx) => {
  const problem = identifierProblem(ctx.value);
  if (problem) ctx.issues.push({ code: "custom", message: problem, input: ctx.value });
});

const hookPoint = z.string({ error: "required for a session hook: one of " + LIVE_HOOK_POINTS.join(", ") }).transform((point, ctx): HookPointValue => {
  if (!(HOOK_POINT_VALUES as readonly string[]).includes(point)) {
    const byMember = HOOK_POINT_VALUES.find((value) => HOOK_POINTS[value].member === point);
    ctx.addIssue({
      code: "custom",
      message: byMember
        ? `use the hook point's value "${byMember}", not the enum member name`
        : `unknown hook point ${JSON.stringify(point)}; use one of ${LIVE_HOOK_POINTS.join(", ")}`,
    });
    return z.NEVER;
  }
  const info = HOOK_POINTS[point as HookPointValue];
  if (info.dormant) {
    ctx.addIssue({ code: "custom", message: `HookPoint.${info.member} ("${point}") is dormant: nothing emits it, so a handler there never runs (${info.summary})` });
    return z.NEVER;
  }
  return point as HookPointValue;
});

// Tool names and chunk keys end up in string literals and comments: keep them to plain names.
const toolName = z
  .string()
  .regex(/^(\*|[A-Za-z_][\w.-]*)$/, 'must be a tool name such as "search", or "*" for every tool')
  .default("*");
const chunkType = z
  .string()
  .regex(/^[A-Za-z_$][\w$.-]*$/, 'must be a chunk key such as "Object" or "String"')
  .default("Object");

const common = {
  name,
  target: z.enum(["file", "cursor"], { error: 'must be "file" or "cursor"' }),
  /** With target "file": replace an existing hooks/<name>.ts instead of refusing. */
  overwrite: z.boolean().default(false),
};

const kindSchemas = {
  session: z.strictObject({ kind: z.literal("session"), ...common, hookPoint }),
  servicePhase: z.strictObject({
    kind: z.literal("servicePhase"),
    ...common,
    phase: z.enum(SERVICE_PHASES, { error: `must be one of ${SERVICE_PHASES.join(", ")}` }),
  }),
  serviceStream: z.strictObject({ kind: z.literal("serviceStream"), ...common, chunkType }),
  tool: z.strictObject({ kind: z.literal("tool"), ...common, toolName }),
  middleware: z.strictObject({
    kind: z.literal("middleware"),
    ...common,
    phases: z
      .array(z.enum(MIDDLEWARE_PHASES, { error: `must be one of ${MIDDLEWARE_PHASES.join(", ")}` }))
      .min(1, "needs at least one phase")
      .default([...DEFAULT_MIDDLEWARE_PHASES]),
  }),
} as const;

const kind = z.enum(SCAFFOLD_KINDS, { error: `must be one of ${SCAFFOLD_KINDS.join(", ")}` });

export type ScaffoldArgs = TemplateOptions & { target: "file" | "cursor"; overwrite: boolean };

export type ParseResult = { ok: true; args: ScaffoldArgs } | { ok: false; error: string };

/** Validates the command's argument object; the error lists every problem with its field. */
export function parseScaffoldArgs(input: unknown): ParseResult {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return { ok: false, error: "expected an object such as { kind, name, target }" };
  }
  const picked = kind.safeParse((input as Record<string, unknown>)["kind"]);
  if (!picked.success) return { ok: false, error: describe(picked.error, "kind") };
  const parsed = kindSchemas[picked.data].safeParse(input);
  if (!parsed.success) return { ok: false, error: describe(parsed.error) };
  return { ok: true, args: parsed.data };
}

function describe(error: z.ZodError, field?: string): string {
  return error.issues.map((issue) => `${issue.path.length > 0 ? issue.path.join(".") : (field ?? "arguments")}: ${issue.message.replace(/\.$/, "")}`).join("; ");
}
