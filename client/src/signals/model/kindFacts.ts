import { deniedNodeName, NODE_PHASE } from "../../../../server/src/cli/deniedNode.js";
import { durationText, formatCount, joinParts } from "./format.js";
import { asRecord, clip, errorText, numberField, stringField, type JsonRecord } from "./payloadFields.js";
import type { CallKind, CallRef, Mutable, SignalFacts } from "./signalFacts.js";
import { sdkBridgeFacts } from "./sdkBridgeSignals.js";
import { kindStyle } from "./signalKinds.js";
import { sourceOf } from "./sourceLocation.js";

// What a signal other than a HookSignal says, by its kind: denials, tool and model calls, runs,
// act() records and drop markers.

/** The kind of the marker the stores write (and the view inserts for a live `dropped` frame) where signals were lost. */
export const SIGNALS_DROPPED_KIND = "SignalsDropped";

const DENIAL_KINDS = new Set(["ToolCallBlocked", "HookShortCircuit", "GuardrailBlock"]);

/** The runtime's signals that record a refused call (each carries `toolName`, `callId`, `reason`, `hook`). */
export function isDenialKind(kindKey: string): boolean {
  return DENIAL_KINDS.has(kindKey);
}

export function readKind(facts: Mutable<SignalFacts>, kind: string, payload: JsonRecord): void {
  const name = kindStyle(kind).name;
  if (DENIAL_KINDS.has(kind)) {
    readDenial(facts, kind, payload);
    return;
  }
  switch (kind) {
    case "GateDenied": {
      facts.problem = "denied";
      const action = asRecord(payload["data"]);
      const toolName = toolNameOfAction(action);
      facts.toolName = toolName;
      // act() puts its call's id on the action it authorizes; an action built by hand (or a
      // recording made before that) names none, and the session model decides where it goes.
      const callId = stringField(action, "callId");
      if (callId) facts.call = { kind: "tool", callId, parentCallId: null };
      // Why and which gate ride in the metadata (GateDenied keeps its as-built fields); older recordings name neither.
      const metadata = asRecord(payload["metadata"]);
      facts.hook = stringField(metadata, "hook");
      facts.detail = stringField(metadata, "reason") ?? "the observer's gate refused it";
      facts.label = toolName ? `${toolName} — denied by the observer gate` : name;
      return;
    }
    case "MessageAdded": {
      const ref = asRecord(payload["messageRef"]);
      const role = stringField(ref, "role");
      if (role === "action_request") facts.messagePeer = stringField(ref, "recipient");
      if (role === "action_response") facts.messagePeer = stringField(ref, "sender");
      if (facts.messagePeer) facts.actionMessage = role === "action_request" ? "request" : "response";
      facts.label = role ? `${name} · ${role.replace(/_/g, " ")}` : name;
      return;
    }
    case "Signal":
      readPlainSignal(facts, payload);
      return;
    case "RunStart": {
      // A named branch's run carries the name (createAgent names a branch after its AgentSpec).
      const branchName = stringField(asRecord(payload["metadata"]), "branchName");
      if (branchName && facts.branchId) facts.branchName = { branchId: facts.branchId, name: branchName, declared: false };
      facts.label = name;
      return;
    }
    case "RunEnd": {
      facts.durationMs = numberField(payload, "durationMs");
      const tokens = (numberField(payload, "inputTokens") ?? 0) + (numberField(payload, "outputTokens") ?? 0);
      facts.tokens = tokens || null;
      facts.label = joinParts([name, durationText(facts.durationMs), facts.tokens ? formatCount(facts.tokens, "token") : ""], " ");
      return;
    }
    case "RunFailed":
      facts.problem = "error";
      facts.detail = errorText(payload["data"]) ?? "failed";
      facts.label = `${name}: ${clip(facts.detail)}`;
      return;
    case "ToolCallStarted": {
      const toolName = stringField(payload, "toolName") ?? "tool";
      facts.toolName = toolName;
      facts.call = callRef("tool", payload);
      const source = stringField(payload, "source");
      facts.label = `${toolName} started${source ? ` (${source})` : ""}`;
      return;
    }
    case "ToolCallFinished":
      readToolFinished(facts, payload);
      return;
    case "ModelCallStarted": {
      facts.model = stringField(payload, "model");
      facts.call = callRef("model", payload);
      facts.label = `model ${facts.model ?? "call"} started${payload["stream"] === true ? " (stream)" : ""}`;
      return;
    }
    case "ModelCallFinished":
      readModelFinished(facts, payload);
      return;
    case "ModelStreamChunks": {
      facts.call = callRef("model", payload);
      facts.chunks = numberField(payload, "chunks");
      const first = numberField(payload, "firstAt");
      const last = numberField(payload, "lastAt");
      if (first !== null && last !== null) facts.durationMs = (last - first) * 1000;
      facts.label = joinParts([formatCount(facts.chunks ?? 0, "chunk"), durationText(facts.durationMs)], " over ");
      return;
    }
    case "RunEvent": {
      const event = stringField(payload, "event");
      facts.label = event ? `${event} ${clip(JSON.stringify(payload["payload"] ?? {}), 60)}` : name;
      return;
    }
    case SIGNALS_DROPPED_KIND: {
      const count = numberField(payload, "count") ?? 0;
      facts.droppedCount = count;
      const reason = stringField(payload, "reason");
      facts.detail = reason;
      facts.label = `${formatCount(count, "signal")} dropped here`;
      return;
    }
    default: {
      const bridged = sdkBridgeFacts(kind, payload);
      if (bridged !== null) return void Object.assign(facts, bridged);
      const data = payload["data"];
      facts.label = data === undefined ? kind : `${kind} ${clip(JSON.stringify(data) ?? "", 60)}`;
    }
  }
}

/** ToolCallBlocked, HookShortCircuit, GuardrailBlock: `refund — blocked by guard: amount > 100`. */
function readDenial(facts: Mutable<SignalFacts>, kind: string, payload: JsonRecord): void {
  facts.problem = "denied";
  facts.toolName = stringField(payload, "toolName");
  const callId = stringField(payload, "callId");
  if (callId) facts.call = { kind: facts.toolName === null ? "model" : "tool", callId, parentCallId: null };
  facts.hook = stringField(payload, "hook");
  facts.detail = stringField(payload, "reason");
  facts.node = deniedNodeName(stringField(payload, "flowName"), stringField(payload, "nodeName"));
  // No tool: a model call, or a flow node, named when the signal names it (a recording made
  // before `flowName`/`nodeName` existed is told by the phase of the hook that decided).
  const subject =
    facts.toolName ??
    (facts.node !== null ? `flow node ${facts.node}` : facts.hook !== null && NODE_PHASE.test(facts.hook) ? "flow node" : "model call");
  const by = hookName(facts.hook);
  if (kind === "HookShortCircuit") facts.label = `${subject} — skipped by ${by}`;
  else facts.label = `${subject} — blocked by ${by}${facts.detail ? `: ${clip(facts.detail)}` : ""}`;
}

/** `tool.pre:guard` → `guard`; an anonymous TOOL_PRE handler is named by its point. */
function hookName(hook: string | null): string {
  if (!hook) return "a hook";
  const at = hook.indexOf(":");
  if (at < 0) return hook;
  const handler = hook.slice(at + 1);
  return handler === "" || handler === "anonymous" ? `a ${hook.slice(0, at)} hook` : handler;
}

function readToolFinished(facts: Mutable<SignalFacts>, payload: JsonRecord): void {
  const toolName = stringField(payload, "toolName") ?? "tool";
  facts.toolName = toolName;
  facts.call = callRef("tool", payload);
  facts.durationMs = numberField(payload, "durationMs");
  const status = stringField(payload, "status");
  if (status === "error") {
    facts.problem = "error";
    facts.detail = errorText(payload["error"]) ?? "failed";
    facts.label = `${toolName} failed: ${clip(facts.detail)}`;
  } else if (status === "denied" || status === "skipped") {
    facts.problem = "denied";
    facts.detail = stringField(payload, "reason");
    facts.label = `${toolName} ${status}${facts.detail ? `: ${clip(facts.detail)}` : ""}`;
  } else {
    facts.label = [toolName, status ?? "finished", durationText(facts.durationMs)].join(" ").trim();
  }
}

function readModelFinished(facts: Mutable<SignalFacts>, payload: JsonRecord): void {
  facts.call = callRef("model", payload);
  facts.model = stringField(payload, "responseModel");
  facts.durationMs = numberField(payload, "durationMs");
  facts.chunks = numberField(payload, "chunks");
  const input = numberField(payload, "inputTokens");
  const output = numberField(payload, "outputTokens");
  facts.tokens = input === null && output === null ? null : (input ?? 0) + (output ?? 0);
  const phases = Array.isArray(payload["hookRuns"]) ? payload["hookRuns"] : [];
  facts.hookPhases = phases.flatMap((phase) => {
    const record = asRecord(phase);
    const hookType = stringField(record, "hookType");
    if (!record || !hookType) return [];
    return [{ hookType, status: stringField(record, "status") ?? "", durationMs: numberField(record, "durationMs"), error: stringField(record, "error"), startedAt: numberField(record, "startedAt"), source: sourceOf(record) }];
  });
  const status = stringField(payload, "status");
  if (status === "error") {
    facts.problem = "error";
    facts.detail = errorText(payload["error"]) ?? "failed";
    facts.label = `model call failed: ${clip(facts.detail)}`;
    return;
  }
  facts.label = joinParts([
    "model call",
    status === "cancelled" ? "cancelled" : "finished",
    facts.chunks ? formatCount(facts.chunks, "chunk") : "",
    facts.tokens !== null ? formatCount(facts.tokens, "token") : "",
  ], " ");
}

/** The plain Signal act() records for a tool call: the FunctionCalling with its execution. */
function readPlainSignal(facts: Mutable<SignalFacts>, payload: JsonRecord): void {
  const data = asRecord(payload["data"]);
  const funcTool = asRecord(data?.["funcTool"]);
  const toolName = toolNameOfAction(data);
  if (!funcTool || !toolName) {
    const raw = payload["data"];
    facts.label = raw === undefined ? "signal" : `signal ${clip(JSON.stringify(raw) ?? "", 60)}`;
    return;
  }
  facts.toolName = toolName;
  facts.toolInstanceId = stringField(funcTool, "id");
  const execution = asRecord(data?.["execution"]);
  const status = stringField(execution, "status");
  const seconds = numberField(execution, "duration");
  facts.durationMs = seconds === null ? null : seconds * 1000;
  const error = errorText(execution?.["error"]);
  if (status === "failed" || error) {
    facts.problem = "error";
    facts.detail = error ?? "failed";
  }
  facts.label = joinParts([`${toolName} call record`, status ?? "", durationText(facts.durationMs)], " ");
}

/** A tool name from an action (a FunctionCalling's tool schema, or a plain `{function}` request). */
function toolNameOfAction(action: JsonRecord | null): string | null {
  const schema = asRecord(asRecord(asRecord(action?.["funcTool"])?.["toolSchema"])?.["function"]);
  return stringField(schema, "name") ?? stringField(action, "function") ?? stringField(action, "toolName");
}

function callRef(kind: CallKind, payload: JsonRecord): CallRef | null {
  const callId = stringField(payload, "callId");
  return callId ? { kind, callId, parentCallId: stringField(payload, "parentCallId") } : null;
}
