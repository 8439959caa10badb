// A middleware Hook subclass with the chosen phases, each typed as HookPhases declares it.
import type { MiddlewarePhase } from "../kinds.js";
import { code, esm, join, stop, typed, type Code } from "./code.js";
import { type, value, type RuntimeImport, type Scaffold } from "./scaffold.js";

export interface MiddlewareOptions {
  name: string;
  phases: readonly MiddlewarePhase[];
}

interface PhaseShape {
  /** Parameters after the invocation, as [name, TypeScript type]. */
  extra?: readonly [string, string];
  returns: string;
  invocation: "ToolInvocation" | "LLMInvocation" | "NodeInvocation<object>";
  comment: string;
  types: readonly string[];
}

const SKIP = "Return new ShortCircuit(value) to skip the call and answer with value; return null to go on.";
const REPLACE = "Return a replacement, or null to keep it. Runs after a before-ShortCircuit too.";
const RECOVER = "Return new ShortCircuit(value) to recover with value; null re-throws (a bare value does not recover).";

const PHASES: Readonly<Record<MiddlewarePhase, PhaseShape>> = {
  beforeTool: { returns: "ShortCircuit | null", invocation: "ToolInvocation", comment: SKIP, types: ["ShortCircuit"] },
  afterTool: { extra: ["result", "ToolResult"], returns: "ToolResult | null", invocation: "ToolInvocation", comment: REPLACE, types: ["ToolResult"] },
  onToolError: { extra: ["error", "unknown"], returns: "ShortCircuit | null", invocation: "ToolInvocation", comment: RECOVER, types: ["ShortCircuit"] },
  beforeLlm: { returns: "ShortCircuit | null", invocation: "LLMInvocation", comment: SKIP, types: ["ShortCircuit"] },
  afterLlm: { extra: ["response", "LLMResponse"], returns: "LLMResponse | null", invocation: "LLMInvocation", comment: REPLACE, types: ["LLMResponse"] },
  onLlmError: { extra: ["error", "unknown"], returns: "ShortCircuit | null", invocation: "LLMInvocation", comment: RECOVER, types: ["ShortCircuit"] },
  onLlmEnd: {
    extra: ["billed", "LedgerEntry | null"],
    returns: "void",
    invocation: "LLMInvocation",
    comment: "Runs once per model call however it ended; billed is the ledger entry it recorded, or null.",
    types: ["LedgerEntry"],
  },
  beforeNode: { returns: "ShortCircuit | null", invocation: "NodeInvocation<object>", comment: SKIP, types: ["ShortCircuit"] },
  afterNode: { extra: ["update", "NodeUpdate"], returns: "NodeUpdate | null", invocation: "NodeInvocation<object>", comment: REPLACE, types: ["NodeUpdate"] },
  onNodeError: { extra: ["error", "unknown"], returns: "ShortCircuit | null", invocation: "NodeInvocation<object>", comment: RECOVER, types: ["ShortCircuit"] },
};

export function middlewareHook({ name, phases }: MiddlewareOptions): Scaffold {
  const chosen = [...new Set(phases)];
  if (chosen.length === 0) throw new Error("A middleware hook needs at least one phase.");
  const methods = chosen.map((phase, i) => method(phase, i + 1));
  const body = code`/**
 * Middleware around the calls an Executor makes: \`new Executor(tools, { hooks: [new ${name}()] })\`.
 * Hooks run in registration order; a phase that throws stops the call and the error propagates.
 */
${esm("export ")}class ${name} extends Hook {
  ${typed("override ")}name = ${JSON.stringify(name)};

${join(methods, "\n\n")}
}
`;
  const typeNames = new Set(chosen.flatMap((phase) => [PHASES[phase].invocation.replace(/<.*$/, ""), ...PHASES[phase].types]));
  const imports: RuntimeImport[] = [value("Hook"), ...[...typeNames].sort().map(type)];
  return { imports, body };
}

function method(phase: MiddlewarePhase, tabStop: number): Code {
  const shape = PHASES[phase];
  const extra = shape.extra ? code`, _${shape.extra[0]}${typed(`: ${shape.extra[1]}`)}` : code``;
  const placeholder = shape.returns === "void" ? "// record usage here" : "return null;";
  return code`  // ${shape.comment}
  ${typed("override ")}${phase}(_inv${typed(`: ${shape.invocation}`)}${extra})${typed(`: ${shape.returns}`)} {
    ${stop(tabStop, placeholder)}
  }`;
}
