import { describe, expect, it } from "vitest";
import { SIGNALS_DROPPED_KIND, type SessionSignalRecord } from "@hooklens/runtime";
import { formatSignalsText } from "../../../server/src/cli/show.js";

const CALL = "81e7f4ce-92cb-43a3-89a0-9d9704d8a5cb";
/** Every signal carries these ahead of its own fields; a branch id alone is ~60 characters of line. */
const ENVELOPE = { createdAt: 1, metadata: { branchId: "f468a9cd-311c-47cc-8af8-7259c4233258" }, schemaVersion: 1 };
const row = (kind: string, payload: SessionSignalRecord["payload"]): SessionSignalRecord => ({ sessionId: "s", kind, opId: "", ts: 2, payload });
/** The text after the time, kind and op id columns. */
const summaryOf = (record: SessionSignalRecord): string => formatSignalsText([record]).split("\n")[0]!.replace(/^\S+ {2}\S+ {2}- {2}/, "");

describe("hooklens show", () => {
  it("prints a SignalsDropped marker as the gap it is, with the count and the reason", () => {
    const text = formatSignalsText([
      { sessionId: "s", kind: "Signal", opId: "", ts: 0, payload: { data: 1 } },
      { sessionId: "s", kind: SIGNALS_DROPPED_KIND, opId: "", ts: 1, payload: { count: 1234, reason: "the database stayed locked" } },
    ]);
    expect(text.split("\n")[1]).toMatch(/^\S+ {2}1,234 signals dropped here \(the database stayed locked\)$/);
    expect(formatSignalsText([{ sessionId: "s", kind: SIGNALS_DROPPED_KIND, opId: "", ts: 1, payload: { count: 1, reason: "" } }])).toMatch(/^\S+ {2}1 signal dropped here\n/);
  });

  it("prints each kind of refused call as its tool, who refused it, the full call id and the reason", () => {
    const denial = { toolName: "deleteFile", callId: CALL, reason: "refusing to delete an absolute path", location: { file: "/a/agent.ts", line: 108, column: 7 } };
    expect(summaryOf(row("ToolCallBlocked", { ...ENVELOPE, ...denial, hook: "tool.pre:noDeletes" }))).toBe(
      `deleteFile blocked by tool.pre:noDeletes (call ${CALL}): refusing to delete an absolute path`,
    );
    expect(summaryOf(row("GuardrailBlock", { ...ENVELOPE, ...denial, reason: "looks like a password", hook: "guardrail.beforeTool" }))).toBe(
      `deleteFile blocked by guardrail.beforeTool (call ${CALL}): looks like a password`,
    );
    expect(summaryOf(row("HookShortCircuit", { ...ENVELOPE, ...denial, reason: "skipped by a ShortCircuit from cached.beforeTool", hook: "cached.beforeTool" }))).toBe(
      `deleteFile skipped by cached.beforeTool (call ${CALL})`,
    );
    const gate = { ...ENVELOPE, metadata: { ...ENVELOPE.metadata, reason: "the gate returned false", hook: "observer.gate:noDeletes" } };
    expect(summaryOf(row("GateDenied", { ...gate, data: { function: "deleteFile", arguments: { path: "/etc/passwd" }, callId: CALL } }))).toBe(
      `deleteFile denied by observer.gate:noDeletes (call ${CALL}): the gate returned false`,
    );
  });

  it("names an unnamed hook by where the program defined it (an arrow function registered inline, an anonymous gate)", () => {
    const inHere = `${process.cwd()}/examples/agent.ts`;
    const blocked = { ...ENVELOPE, toolName: "deleteFile", callId: CALL, reason: "no", hook: "tool.pre:anonymous", location: { file: inHere, line: 108, column: 7 } };
    expect(summaryOf(row("ToolCallBlocked", blocked))).toBe(`deleteFile blocked by tool.pre:anonymous at examples/agent.ts:108 (call ${CALL}): no`);
    // Outside the current folder: the path as recorded.
    expect(summaryOf(row("ToolCallBlocked", { ...blocked, location: { file: "/elsewhere/agent.ts", line: 9, column: 1 } }))).toBe(
      `deleteFile blocked by tool.pre:anonymous at /elsewhere/agent.ts:9 (call ${CALL}): no`,
    );
    const gate = { ...ENVELOPE, metadata: { ...ENVELOPE.metadata, reason: "the gate returned false", hook: "observer.gate:anonymous", location: { file: inHere, line: 40, column: 3 } } };
    expect(summaryOf(row("GateDenied", { ...gate, data: { function: "deleteFile", callId: CALL } }))).toBe(
      `deleteFile denied by observer.gate:anonymous at examples/agent.ts:40 (call ${CALL}): the gate returned false`,
    );
    // No location recorded: the name alone, as before.
    expect(summaryOf(row("ToolCallBlocked", { ...blocked, location: null }))).toBe(`deleteFile blocked by tool.pre:anonymous (call ${CALL}): no`);
  });

  it("still prints a refused call whose record lacks fields (a model call, an older recording)", () => {
    expect(summaryOf(row("GuardrailBlock", { ...ENVELOPE, toolName: null, callId: null, reason: "no", hook: "guardrail.beforeLlm" }))).toBe("a model call blocked by guardrail.beforeLlm: no");
    expect(summaryOf(row("GateDenied", { ...ENVELOPE, data: { function: "rm" } }))).toBe("rm denied by the observer gate");
    // A flow node a middleware hook skipped, recorded before the denial named its flow and node.
    const skipped = { ...ENVELOPE, reason: "skipped by a ShortCircuit from replay.beforeNode", hook: "replay.beforeNode" };
    expect(summaryOf(row("HookShortCircuit", skipped))).toBe("a flow node skipped by replay.beforeNode");
    expect(summaryOf(row("HookShortCircuit", { ...skipped, flowName: "support", nodeName: "classify" }))).toBe("flow node support/classify skipped by replay.beforeNode");
    expect(summaryOf(row("HookShortCircuit", { ...skipped, nodeName: "classify" }))).toBe("flow node classify skipped by replay.beforeNode");
    expect(summaryOf(row("ToolCallBlocked", {}))).toBe("a tool call blocked by a hook");
  });
});
