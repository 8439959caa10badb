// The interactive path of the command: quick picks and input boxes that end in the same
// argument object a caller could pass directly. Undefined anywhere means the user cancelled.
import * as vscode from "vscode";
import { capitalize, identifierProblem } from "./identifier.js";
import {
  DEFAULT_MIDDLEWARE_PHASES,
  DORMANT_ALTERNATIVE,
  HOOK_POINTS,
  HOOK_POINT_VALUES,
  KIND_INFO,
  MIDDLEWARE_PHASES,
  SCAFFOLD_KINDS,
  SERVICE_PHASES,
  SERVICE_PHASE_INFO,
  type HookPointValue,
  type ScaffoldKind,
  type ServicePhase,
} from "./kinds.js";
import type { TemplateOptions } from "./templates/index.js";

const TITLE = "HookLens: New Hook";

type Choice<T> = vscode.QuickPickItem & { value: T };

/** Everything but the name; the name is asked once the shape of the hook is known. */
type Shape = DistributiveOmit<TemplateOptions, "name">;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

export async function askTemplateOptions(): Promise<TemplateOptions | undefined> {
  const kind = await pick(
    SCAFFOLD_KINDS.map((value) => ({ value, ...KIND_INFO[value] })),
    "Which kind of hook?",
  );
  if (!kind) return undefined;
  const shape = await askShape(kind);
  if (!shape) return undefined;
  const name = await askName(defaultName(shape));
  return name === undefined ? undefined : { ...shape, name };
}

async function askShape(kind: ScaffoldKind): Promise<Shape | undefined> {
  switch (kind) {
    case "session":
      return askHookPoint();
    case "servicePhase": {
      const phase = await askServicePhase();
      return phase && { kind, phase };
    }
    case "serviceStream": {
      const chunkType = await askText("Chunk key to handle (\"Object\" for plain JSON chunks, \"String\" for strings)", "Object", (value) =>
        /^[A-Za-z_$][\w$.-]*$/.test(value) ? undefined : "Use a chunk key such as Object or String.",
      );
      return chunkType === undefined ? undefined : { kind, chunkType };
    }
    case "tool": {
      const toolName = await askText("Tool name (\"*\" for every tool)", "*", (value) =>
        /^(\*|[A-Za-z_][\w.-]*)$/.test(value) ? undefined : "Use a tool name such as search, or * for every tool.",
      );
      return toolName === undefined ? undefined : { kind, toolName };
    }
    case "middleware": {
      const phases = await askMiddlewarePhases();
      return phases && { kind, phases };
    }
  }
}

/** Live points first; dormant ones are listed apart and explained instead of scaffolded. */
async function askHookPoint(): Promise<Shape | undefined> {
  const item = (point: HookPointValue): Choice<HookPointValue> => {
    const info = HOOK_POINTS[point];
    return info.dormant
      ? { value: point, label: `$(warning) ${point}`, description: `HookPoint.${info.member}: never fires`, detail: `Nothing emits it; ${info.summary}.` }
      : { value: point, label: point, description: `HookPoint.${info.member}`, detail: `Fires ${info.summary}.` };
  };
  const live = HOOK_POINT_VALUES.filter((point) => !HOOK_POINTS[point].dormant).map(item);
  const dormant = HOOK_POINT_VALUES.filter((point) => HOOK_POINTS[point].dormant).map(item);
  const separator = { label: "dormant: declared, never emitted", kind: vscode.QuickPickItemKind.Separator } as Choice<HookPointValue>;
  const point = await pick([...live, separator, ...dormant], "Which HookPoint?");
  if (!point) return undefined;
  if (!HOOK_POINTS[point].dormant) return { kind: "session", hookPoint: point };
  return explainDormant(point);
}

async function explainDormant(point: HookPointValue): Promise<Shape | undefined> {
  const info = HOOK_POINTS[point];
  const alternative = DORMANT_ALTERNATIVE[point];
  const message = `HookPoint.${info.member} ("${point}") never fires: the runtime declares it but nothing emits it, so a handler registered there never runs. ${capitalize(info.summary)}.`;
  if (!alternative) {
    void vscode.window.showWarningMessage(message, { modal: true });
    return undefined;
  }
  const label = alternative.kind === "servicePhase" ? `Scaffold a ${alternative.phase} hook` : "Scaffold a stream handler";
  const answer = await vscode.window.showWarningMessage(message, { modal: true }, label);
  if (answer !== label) return undefined;
  if (alternative.kind === "servicePhase" && alternative.phase) return { kind: "servicePhase", phase: alternative.phase };
  return { kind: "serviceStream", chunkType: "Object" };
}

function askServicePhase(): Promise<ServicePhase | undefined> {
  return pick(
    SERVICE_PHASES.map((value) => ({ value, label: value, description: `registry.${SERVICE_PHASE_INFO[value].method}(fn)`, detail: SERVICE_PHASE_INFO[value].summary })),
    "Which phase of the model call?",
  );
}

async function askMiddlewarePhases(): Promise<(typeof MIDDLEWARE_PHASES)[number][] | undefined> {
  const items = MIDDLEWARE_PHASES.map((value) => ({ value, label: value, picked: DEFAULT_MIDDLEWARE_PHASES.includes(value) }));
  const picked = await vscode.window.showQuickPick(items, { title: TITLE, placeHolder: "Which phases? (pick at least one)", canPickMany: true, ignoreFocusOut: true });
  if (!picked) return undefined;
  if (picked.length === 0) {
    void vscode.window.showWarningMessage("HookLens: a middleware hook needs at least one phase.");
    return undefined;
  }
  return picked.map((item) => item.value);
}

function askName(suggestion: string): Promise<string | undefined> {
  return askText("Name of the hook (a function or class name)", suggestion, identifierProblem);
}

function defaultName(shape: Shape): string {
  switch (shape.kind) {
    case "session":
      return `on${shape.hookPoint.split(/[._]/).map(capitalize).join("")}`;
    case "servicePhase":
      return { pre_event_create: "beforeEventCreate", pre_invocation: "guardModelCall", post_invocation: "auditModelCall" }[shape.phase];
    case "serviceStream":
      return "onStreamChunk";
    case "tool":
      return shape.toolName === "*" ? "toolHooks" : `${shape.toolName.replace(/\W/g, "_")}Hooks`;
    case "middleware":
      return "MyHook";
  }
}

async function pick<T>(items: Choice<T>[], placeHolder: string): Promise<T | undefined> {
  const chosen = await vscode.window.showQuickPick(items, { title: TITLE, placeHolder, matchOnDescription: true, matchOnDetail: true, ignoreFocusOut: true });
  return chosen?.value;
}

function askText(prompt: string, value: string, validate: (value: string) => string | undefined): Promise<string | undefined> {
  return Promise.resolve(
    vscode.window.showInputBox({ title: TITLE, prompt, value, ignoreFocusOut: true, validateInput: (input) => validate(input.trim()) ?? null }),
  ).then((input) => input?.trim());
}

/** Where to put the hook: at the cursor of a TS/JS editor, or in hooks/<name>.ts. */
export async function askTarget(name: string, cursorAvailable: boolean): Promise<"file" | "cursor" | undefined> {
  if (!cursorAvailable) return "file";
  return pick<"file" | "cursor">(
    [
      { value: "cursor", label: "$(insert) Insert at the cursor", description: "as a snippet: Tab moves through the placeholders" },
      { value: "file", label: `$(new-file) New file hooks/${name}.ts`, description: "in the workspace folder, then open it" },
    ],
    "Where should the hook go?",
  );
}

/** Asks before replacing an existing file. */
export async function confirmOverwrite(relativePath: string): Promise<boolean> {
  const answer = await vscode.window.showWarningMessage(`${relativePath} already exists. Replace it?`, { modal: true }, "Replace");
  return answer === "Replace";
}
