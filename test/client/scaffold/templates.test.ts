import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LIVE_HOOK_POINTS, MIDDLEWARE_PHASES, SERVICE_PHASES } from "../../../client/src/scaffold/kinds.js";
import { renderFile, renderInsertion, type Language, type TemplateOptions } from "../../../client/src/scaffold/templates/index.js";
import { expandSnippet, generatedChecker, type GeneratedChecker } from "./checkGenerated.js";

// Every variant a user can ask for (all live points, phases, the wildcard and odd keys).
const CASES: readonly TemplateOptions[] = [
  ...LIVE_HOOK_POINTS.map((hookPoint): TemplateOptions => ({ kind: "session", name: "onPoint", hookPoint })),
  ...SERVICE_PHASES.map((phase): TemplateOptions => ({ kind: "servicePhase", name: "phaseHook", phase })),
  { kind: "serviceStream", name: "onChunk", chunkType: "Object" },
  { kind: "serviceStream", name: "onChunk", chunkType: "chat.delta-v2" },
  { kind: "tool", name: "searchHooks", toolName: "search" },
  { kind: "tool", name: "allTools", toolName: "*" },
  { kind: "middleware", name: "AuditHook", phases: ["beforeTool", "afterTool", "onToolError"] },
  { kind: "middleware", name: "Everything", phases: MIDDLEWARE_PHASES },
  ...MIDDLEWARE_PHASES.map((phase): TemplateOptions => ({ kind: "middleware", name: "OnePhase", phases: [phase] })),
];

const label = (options: TemplateOptions) => JSON.stringify(options);

let checker: GeneratedChecker;
beforeAll(() => void (checker = generatedChecker()));
afterAll(() => checker.dispose());

describe.each<Language>(["ts", "js"])("generated %s files", (language) => {
  const file = `hook.${language}`;

  it.each(CASES.map((options) => [label(options), options] as const))("%s: no HookLens finding", (_label, options) => {
    expect(checker.findings(file, renderFile(options, language))).toEqual([]);
  });

  it.each(CASES.map((options) => [label(options), options] as const))("%s: typechecks against the runtime", (_label, options) => {
    expect(checker.typeErrors(file, renderFile(options, language))).toEqual([]);
  });

  it.each(CASES.map((options) => [label(options), options] as const))("%s: the snippet expands to the file's code", (_label, options) => {
    const { text, snippet } = renderInsertion(options, language);
    expect(expandSnippet(snippet)).toBe(text);
    expect(renderFile(options, language).endsWith(text)).toBe(true);
  });
});

describe("what the templates say", () => {
  it("imports from @hooklens/runtime by its public names", () => {
    expect(renderFile({ kind: "session", name: "guard", hookPoint: "tool.pre" })).toMatch(
      /^import \{ type HookBus, HookPoint, type PayloadOf \} from "@hooklens\/runtime";\n/,
    );
    expect(renderFile({ kind: "middleware", name: "H", phases: ["beforeTool"] }, "js")).toMatch(/^import \{ Hook \} from "@hooklens\/runtime";\n/);
  });

  it("registers a session handler on the chosen point and says tool.pre blocks", () => {
    const text = renderFile({ kind: "session", name: "guard", hookPoint: "tool.pre" });
    expect(text).toContain("return bus.on(HookPoint.TOOL_PRE, guard);");
    expect(text).toContain("export function registerGuard(bus: HookBus): () => void");
    expect(text).toContain("Throwing blocks the tool call");
  });

  it("refuses a dormant point even when called directly", () => {
    expect(() => renderFile({ kind: "session", name: "x", hookPoint: "api.pre_call" })).toThrow(/never fires/);
  });

  it("uses each phase's registry method", () => {
    expect(renderFile({ kind: "servicePhase", name: "h", phase: "pre_event_create" })).toContain("registry.preEventCreateHook(h);");
    expect(renderFile({ kind: "servicePhase", name: "h", phase: "pre_invocation" })).toContain("registry.preInvoke(h);");
    expect(renderFile({ kind: "servicePhase", name: "h", phase: "post_invocation" })).toContain("registry.postInvoke(h);");
  });

  it("types the stream handler with StreamHandler and declares all four parameters", () => {
    const text = renderFile({ kind: "serviceStream", name: "onChunk", chunkType: "chat.delta" });
    expect(text).toContain("export const onChunk: StreamHandler = (_event, _chunkType, chunk, _params) =>");
    expect(text).toContain('streamHandlers: { "chat.delta": onChunk }');
  });

  it("returns objects from tool hooks and sends failures to tool.error, never to onError", () => {
    const text = renderFile({ kind: "tool", name: "searchHooks", toolName: "search" });
    expect(text).toContain("return { ...result };");
    expect(text).toContain("bus.on(HookPoint.TOOL_ERROR");
    expect(text).toContain('if (toolName !== "search") return;');
    expect(text).not.toMatch(/\.onError\(/);
  });

  it("makes every placeholder a tab stop, numbered from 1, ending at $0 when the template sets one", () => {
    const { snippet } = renderInsertion({ kind: "tool", name: "t", toolName: "*" }, "ts");
    expect(snippet).toContain("${1:return { ...args \\};}");
    expect(snippet).toContain("${2:return { ...result \\};}");
    expect(snippet).toContain("$0");
    // A template literal in a placeholder must not read as a snippet variable.
    expect(snippet).toContain("console.error(`\\${toolName\\} failed:`, error);");
  });

  it("writes each middleware phase once, marked override as noImplicitOverride requires", () => {
    const text = renderFile({ kind: "middleware", name: "Audit", phases: ["afterLlm", "afterLlm"] });
    expect(text.match(/afterLlm\(/g)).toHaveLength(1);
    expect(text).toContain('override name = "Audit";');
    expect(text).toContain("override afterLlm(_inv: LLMInvocation, _response: LLMResponse): LLMResponse | null {");
  });
});
