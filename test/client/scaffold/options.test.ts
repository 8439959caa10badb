import { describe, expect, it } from "vitest";
import { parseScaffoldArgs } from "../../../client/src/scaffold/options.js";

const error = (input: unknown) => {
  const result = parseScaffoldArgs(input);
  if (result.ok) throw new Error(`expected ${JSON.stringify(input)} to be refused`);
  return result.error;
};

describe("command arguments", () => {
  it("accepts a complete argument object for every kind and fills the defaults", () => {
    expect(parseScaffoldArgs({ kind: "session", name: "guard", hookPoint: "tool.pre", target: "file" })).toEqual({
      ok: true,
      args: { kind: "session", name: "guard", hookPoint: "tool.pre", target: "file", overwrite: false },
    });
    expect(parseScaffoldArgs({ kind: "servicePhase", name: "g", phase: "post_invocation", target: "cursor", overwrite: true })).toMatchObject({ ok: true });
    expect(parseScaffoldArgs({ kind: "serviceStream", name: "s", target: "file" })).toMatchObject({ ok: true, args: { chunkType: "Object" } });
    expect(parseScaffoldArgs({ kind: "tool", name: "t", target: "file" })).toMatchObject({ ok: true, args: { toolName: "*" } });
    expect(parseScaffoldArgs({ kind: "middleware", name: "M", target: "file" })).toMatchObject({
      ok: true,
      args: { phases: ["beforeTool", "afterTool", "onToolError"] },
    });
  });

  it("needs an object with a known kind", () => {
    expect(error("session")).toBe("expected an object such as { kind, name, target }");
    expect(error(null)).toBe("expected an object such as { kind, name, target }");
    expect(error([])).toBe("expected an object such as { kind, name, target }");
    expect(error({ name: "x", target: "file" })).toBe("kind: must be one of session, servicePhase, serviceStream, tool, middleware");
    expect(error({ kind: "hook", name: "x", target: "file" })).toMatch(/^kind: must be one of/);
  });

  it("names every bad field in one message", () => {
    expect(error({ kind: "session", name: "2x", target: "disk" })).toBe(
      'name: A name cannot start with a digit; target: must be "file" or "cursor"; ' +
        "hookPoint: required for a session hook: one of session.start, session.end, branch.create, tool.pre, tool.post, tool.error, message.add",
    );
  });

  it("refuses a dormant hook point and says what to use instead", () => {
    expect(error({ kind: "session", name: "x", hookPoint: "api.pre_call", target: "file" })).toBe(
      'hookPoint: HookPoint.API_PRE_CALL ("api.pre_call") is dormant: nothing emits it, so a handler there never runs (use a service pre_invocation hook (registry.preInvoke) instead)',
    );
    expect(error({ kind: "session", name: "x", hookPoint: "artifact.created", target: "file" })).toMatch(/ARTIFACT_CREATED.*never runs/);
  });

  it("points from an enum member name to its value, and rejects unknown points", () => {
    expect(error({ kind: "session", name: "x", hookPoint: "TOOL_PRE", target: "file" })).toBe(`hookPoint: use the hook point's value "tool.pre", not the enum member name`);
    expect(error({ kind: "session", name: "x", hookPoint: "tool.start", target: "file" })).toMatch(/^hookPoint: unknown hook point "tool.start"; use one of session.start/);
  });

  it("checks the fields of each kind", () => {
    expect(error({ kind: "servicePhase", name: "x", target: "file", phase: "preInvoke" })).toBe("phase: must be one of pre_event_create, pre_invocation, post_invocation");
    expect(error({ kind: "serviceStream", name: "x", target: "file", chunkType: "a b" })).toMatch(/^chunkType: must be a chunk key/);
    expect(error({ kind: "tool", name: "x", target: "file", toolName: "*/evil" })).toMatch(/^toolName: must be a tool name/);
    expect(error({ kind: "middleware", name: "X", target: "file", phases: [] })).toBe("phases: needs at least one phase");
    expect(error({ kind: "middleware", name: "X", target: "file", phases: ["beforeTool", "afterAll"] })).toMatch(/^phases\.1: must be one of beforeTool/);
    expect(error({ kind: "tool", name: "x", target: "file", overwrite: "yes" })).toMatch(/^overwrite: /);
  });

  it("rejects keys that belong to another kind or to nothing", () => {
    expect(error({ kind: "tool", name: "x", target: "file", hookPoint: "tool.pre" })).toMatch(/Unrecognized key: "hookPoint"/);
  });
});
