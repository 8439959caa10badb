import { describe, expect, it } from "vitest";
import type { AnalysisResult } from "../../../server/src/analyzer/index.js";
import type { Finding } from "../../../server/src/analyzer/index.js";
import { DEFAULT_SETTINGS } from "../../../server/src/config/ruleSettings.js";
import { carryFailedRules } from "../../../server/src/lsp/carryOver.js";
import { diagnosticsFor } from "../../../server/src/lsp/diagnostics.js";

const docsUrl = (code: string) => `file:///docs/rules/${code}.md`;

function lineStartsOf(text: string): number[] {
  return [0, ...[...text.matchAll(/\n/g)].map((m) => m.index + 1)];
}

function finding(code: string, text: string, covered: string, extra: Partial<Finding> = {}): Finding {
  const start = text.indexOf(covered);
  return { code, severity: "warning", message: `${code} headline`, start, end: start + covered.length, ...extra };
}

describe("a rule that fails keeps its last findings (no flicker while typing)", () => {
  const before = "const a = 1;\nbus.on(HookPoint.API_PRE_CALL, h);\nregistry.x(chunk);\n";
  const after = "const a = 1;\nbus.on(HookPoint.API_PRE_CALL, h);\nregistry.x(chunk);\nimport {\n";
  const previous = {
    text: before,
    lineStarts: lineStartsOf(before),
    result: {
      findings: [finding("HL001", before, "HookPoint.API_PRE_CALL", { fix: { title: "t", edits: [] } }), finding("HL003", before, "chunk")],
      failures: [],
      notices: [],
    } satisfies AnalysisResult,
  };

  it("carries the failed rule's findings to the same line and column, without a quick fix", () => {
    const fresh: AnalysisResult = { findings: [finding("HL003", after, "chunk")], failures: [{ code: "HL001", error: new Error("boom") }], notices: [] };
    const result = carryFailedRules(previous, { text: after, lineStarts: lineStartsOf(after) }, fresh);
    expect(result.findings.map((f) => [f.code, after.slice(f.start, f.end), f.fix])).toEqual([
      ["HL001", "HookPoint.API_PRE_CALL", undefined],
      ["HL003", "chunk", undefined],
    ]);
    expect(result.failures).toEqual(fresh.failures);
  });

  it("keeps only the failed rules' old findings: a rule that ran says what it found now", () => {
    const fresh: AnalysisResult = { findings: [], failures: [{ code: "HL001", error: new Error("boom") }], notices: [] };
    const result = carryFailedRules(previous, { text: after, lineStarts: lineStartsOf(after) }, fresh);
    expect(result.findings.map((f) => f.code)).toEqual(["HL001"]);
  });

  it("clamps a carried finding to the shorter text", () => {
    const short = "x\n";
    const fresh: AnalysisResult = { findings: [], failures: [{ code: "HL003", error: new Error("boom") }], notices: [] };
    const [carried] = carryFailedRules(previous, { text: short, lineStarts: lineStartsOf(short) }, fresh).findings;
    expect([carried!.start, carried!.end]).toEqual([short.length, short.length]);
  });

  it("changes nothing when every rule ran", () => {
    const fresh: AnalysisResult = { findings: [], failures: [], notices: [] };
    expect(carryFailedRules(previous, { text: after, lineStarts: lineStartsOf(after) }, fresh)).toBe(fresh);
  });
});

describe("notices become one information diagnostic", () => {
  const text = 'import { HookBus } from "@hooklens/runtime";\nconst x = ;\n';
  const analysis = (notices: AnalysisResult["notices"], findings: Finding[] = []) => ({ text, lineStarts: lineStartsOf(text), result: { findings, failures: [], notices } });

  it("sits on what the first located notice is about (the import), with every notice's message", () => {
    const importStart = text.indexOf('"@hooklens/runtime"');
    const diagnostics = diagnosticsFor(
      analysis([
        { kind: "syntax-errors", message: "has syntax errors", start: 0, end: 0 },
        { kind: "runtime-unresolved", message: "cannot resolve @hooklens/runtime", start: importStart, end: importStart + 19 },
      ]),
      DEFAULT_SETTINGS,
      docsUrl,
    );
    expect(diagnostics).toEqual([
      {
        range: { start: { line: 0, character: importStart }, end: { line: 0, character: importStart + 19 } },
        severity: 3,
        source: "hooklens",
        message: "• has syntax errors\n• cannot resolve @hooklens/runtime",
      },
    ]);
  });

  it("sits on the first line when no notice is located, and comes before the findings", () => {
    const diagnostics = diagnosticsFor(analysis([{ kind: "unsupported-file", message: "not read", start: 0, end: 0 }], [finding("HL001", text, "HookBus")]), DEFAULT_SETTINGS, docsUrl);
    expect(diagnostics.map((d) => [d.message, d.range.start.line, d.range.end.character])).toEqual([
      ["not read", 0, text.indexOf("\n")],
      ["HL001 headline", 0, text.indexOf("HookBus") + 7],
    ]);
  });

  it("is absent for a fully analysed file, and everything is absent when HookLens is disabled", () => {
    expect(diagnosticsFor(analysis([]), DEFAULT_SETTINGS, docsUrl)).toEqual([]);
    expect(diagnosticsFor(analysis([{ kind: "unsupported-file", message: "m", start: 0, end: 0 }]), { ...DEFAULT_SETTINGS, enable: false }, docsUrl)).toEqual([]);
  });
});
