// Runs the AI SDK pack's rules over a source text compiled against the real installed SDK: as
// written (`ai`, 7.0.173) and with its imports pointed at `ai-v6` (6.0.333). Files live in memory
// under test/fixtures/ai-sdk, so `ai` and `ai-v6` resolve from the repository's node_modules.
import { join } from "node:path";
import { Project, ts } from "ts-morph";
import { AI_SDK_RULES, aiSdkFacts } from "../../../server/src/analyzer/packs/ai-sdk/index.js";
import type { AiSdkReport } from "../../../server/src/analyzer/packs/ai-sdk/rule.js";
import { REPO_ROOT } from "../../helpers/fixtureProject.js";

export type SdkName = "v6" | "v7";
export const SDKS: readonly SdkName[] = ["v6", "v7"];

const FOLDER = join(REPO_ROOT, "test/fixtures/ai-sdk/cases");
let project: Project | undefined;
let made = 0;

function sharedProject(): Project {
  project ??= new Project({
    compilerOptions: {
      strict: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      skipLibCheck: true,
      types: ["node"],
      lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
      noEmit: true,
      allowJs: true,
    },
  });
  return project;
}

/** The source as compiled against `sdk`: `from "ai"` and `from "ai/test"` point at `ai-v6` for v6. */
export function forSdk(source: string, sdk: SdkName): string {
  return sdk === "v7" ? source : source.replace(/from "ai(\/[a-z]+)?"/g, 'from "ai-v6$1"');
}

export interface Analysed {
  findings: Array<AiSdkReport & { code: string; text: string }>;
  typeErrors: string[];
  /** How many calls of each SDK function the rules read (`streamText: 1`). */
  sdkCalls: Record<string, number>;
}

const COUNTED_CALLS = ["generateText", "streamText", "streamObject", "wrapLanguageModel", "tool"];

/**
 * The findings of every AI SDK rule on `files` (name → source; the first is analysed, the others
 * are modules it may import), and the type errors of the analysed file.
 */
export function analyse(files: Record<string, string>, sdk: SdkName): Analysed {
  const p = sharedProject();
  const dir = join(FOLDER, `case-${++made}`);
  const created = Object.entries(files).map(([name, text]) => p.createSourceFile(join(dir, name), forSdk(text, sdk), { overwrite: true }));
  try {
    const sourceFile = created[0]!;
    const facts = aiSdkFacts(sourceFile);
    const findings: Analysed["findings"] = [];
    for (const rule of AI_SDK_RULES) {
      rule.check({ sourceFile, facts, report: (finding) => findings.push({ ...finding, code: rule.code, text: sourceFile.getFullText().slice(finding.start, finding.end) }) });
    }
    const typeErrors = sourceFile.getPreEmitDiagnostics().map((d) => ts.flattenDiagnosticMessageText(d.compilerObject.messageText, "\n"));
    const sdkCalls = Object.fromEntries(COUNTED_CALLS.map((name) => [name, facts.callsOf(name).length]).filter(([, count]) => count !== 0));
    return { findings, typeErrors, sdkCalls };
  } finally {
    for (const file of created) p.removeSourceFile(file);
  }
}
