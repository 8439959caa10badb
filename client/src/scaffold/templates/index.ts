// Entry point of the templates: pick the template for a kind and render a file or a snippet.
import type { Language, ModuleKind, Rendered } from "./code.js";
import { middlewareHook, type MiddlewareOptions } from "./middleware.js";
import { RUNTIME_MODULE, type RuntimeImport, type Scaffold } from "./scaffold.js";
import { servicePhaseHook, type ServicePhaseOptions } from "./servicePhase.js";
import { serviceStreamHandler, type ServiceStreamOptions } from "./serviceStream.js";
import { sessionHook, type SessionHookOptions } from "./session.js";
import { toolHooks, type ToolHooksOptions } from "./tool.js";

export type { Language, ModuleKind, Rendered } from "./code.js";
export type { RuntimeImport, Scaffold } from "./scaffold.js";
export { RUNTIME_MODULE } from "./scaffold.js";

export type TemplateOptions =
  | ({ kind: "session" } & SessionHookOptions)
  | ({ kind: "servicePhase" } & ServicePhaseOptions)
  | ({ kind: "serviceStream" } & ServiceStreamOptions)
  | ({ kind: "tool" } & ToolHooksOptions)
  | ({ kind: "middleware" } & MiddlewareOptions);

// A switch over the union: noImplicitReturns turns a kind without a template into a compile error.
export function buildScaffold(options: TemplateOptions): Scaffold {
  switch (options.kind) {
    case "session":
      return sessionHook(options);
    case "servicePhase":
      return servicePhaseHook(options);
    case "serviceStream":
      return serviceStreamHandler(options);
    case "tool":
      return toolHooks(options);
    case "middleware":
      return middlewareHook(options);
  }
}

/** The runtime names `imports` needs in `language` (type-only names vanish in JavaScript). */
export function importsFor(imports: readonly RuntimeImport[], language: Language): RuntimeImport[] {
  const kept = imports.filter((entry) => language === "ts" || !entry.typeOnly);
  return [...new Map(kept.map((entry) => [entry.name, entry])).values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** `import { A, type B } from "@hooklens/runtime";`, or "" when nothing is needed. */
export function importStatement(imports: readonly RuntimeImport[], language: Language): string {
  const names = importsFor(imports, language);
  if (names.length === 0) return "";
  if (names.every((entry) => entry.typeOnly)) return `import type { ${names.map((entry) => entry.name).join(", ")} } from "${RUNTIME_MODULE}";`;
  return `import { ${names.map((entry) => (entry.typeOnly ? `type ${entry.name}` : entry.name)).join(", ")} } from "${RUNTIME_MODULE}";`;
}

/** A whole new file: the import, a blank line, the code. */
export function renderFile(options: TemplateOptions, language: Language = "ts"): string {
  const scaffold = buildScaffold(options);
  const statement = importStatement(scaffold.imports, language);
  const { text } = scaffold.body.render(language);
  return statement ? `${statement}\n\n${text}` : text;
}

/** The code alone, as text and as a snippet, plus the imports it needs from the runtime. */
export function renderInsertion(options: TemplateOptions, language: Language, module: ModuleKind = "esm"): Rendered & { imports: RuntimeImport[] } {
  const scaffold = buildScaffold(options);
  return { ...scaffold.body.render(language, module), imports: importsFor(scaffold.imports, language) };
}
