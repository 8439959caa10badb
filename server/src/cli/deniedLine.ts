import { isAbsolute, relative } from "node:path";
import type { JsonObject, JsonValue } from "@hooklens/runtime";
import { deniedNodeName, NODE_PHASE } from "./deniedNode.js";
import { oneLine } from "./oneLine.js";

/** The runtime's records of a refused call: each names the tool, the call, why and which hook decided. */
const DENIAL_KINDS = new Set(["ToolCallBlocked", "HookShortCircuit", "GuardrailBlock", "GateDenied"]);
/** The reason is the one free-text part; a very long one is cut so the line stays a line. */
const REASON_CHARS = 200;

/** Whether `kind` records a call that a hook, a guardrail or the observer's gate refused. */
export function isDeniedCall(kind: string): boolean {
  return DENIAL_KINDS.has(kind);
}

/**
 * A refused call in words, its call id in full and the reason last, e.g. `deleteFile blocked by
 * tool.pre:noDeletes (call 81e7…): deleting is not allowed`, or `flow node support/classify
 * skipped by replay.beforeNode`. The generic `key=value` summary cut
 * these off behind the signal's metadata, so a denial printed as its tool name and half an id.
 * `GateDenied` keeps its as-built fields: the action is its `data`, why and which gate its metadata.
 */
export function deniedCallLine(kind: string, payload: JsonObject): string {
  const gate = kind === "GateDenied";
  const fields = gate ? objectOf(payload["data"]) : payload;
  const about = gate ? objectOf(payload["metadata"]) : payload;
  const named = textOf(about, "hook");
  // Middleware denials name no tool when they refused a model call or a flow node: a node by its
  // `flowName`/`nodeName`, or (a row recorded before those fields) told by the hook's phase.
  const node = gate ? null : deniedNodeName(textOf(fields, "flowName"), textOf(fields, "nodeName"));
  const untold = gate ? "an action" : kind === "ToolCallBlocked" ? "a tool call" : node !== null ? `flow node ${node}` : named !== null && NODE_PHASE.test(named) ? "a flow node" : "a model call";
  const toolName = textOf(fields, gate ? "function" : "toolName") ?? untold;
  const callId = textOf(fields, "callId");
  // An unnamed handler (`tool.pre:anonymous`, an arrow function) is only identified by where the
  // program defined it; the runtime records that as `location` (GateDenied: in its metadata).
  const site = named === null || isAnonymous(named) ? siteOf(about["location"]) : null;
  const hook = (named ?? (gate ? "the observer gate" : "a hook")) + (site ? ` at ${site}` : "");
  const reason = textOf(about, "reason");
  const verb = kind === "HookShortCircuit" ? "skipped by" : gate ? "denied by" : "blocked by";
  const call = callId ? ` (call ${callId})` : "";
  // A short circuit's reason only repeats who skipped it.
  const why = reason && kind !== "HookShortCircuit" ? `: ${cut(oneLine(reason))}` : "";
  return `${toolName} ${verb} ${hook}${call}${why}`;
}

/** `tool.pre:anonymous`, `observer.gate:anonymous`, or a middleware hook without a name (`.beforeTool`). */
function isAnonymous(hook: string): boolean {
  return hook.endsWith(":anonymous") || hook.startsWith(".");
}

/** `agent.ts:108` from a recorded `{ file, line }`, the file relative to the current folder when inside it. */
function siteOf(value: JsonValue | undefined): string | null {
  const location = objectOf(value);
  const file = location["file"];
  const line = location["line"];
  if (typeof file !== "string" || file === "" || typeof line !== "number") return null;
  const inside = isAbsolute(file) ? relative(process.cwd(), file) : file;
  const shown = inside !== "" && !inside.startsWith("..") && !isAbsolute(inside) ? inside : file;
  return `${oneLine(shown)}:${line}`;
}

function objectOf(value: JsonValue | undefined): JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? value : {};
}

function textOf(object: JsonObject, key: string): string | null {
  const value = object[key];
  return typeof value === "string" && value !== "" ? oneLine(value) : null;
}

function cut(text: string): string {
  return text.length <= REASON_CHARS ? text : `${text.slice(0, REASON_CHARS - 1)}…`;
}
