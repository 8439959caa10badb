// Inserting a hook at the cursor also needs its runtime imports: this works out the one edit
// that adds the missing names, merged into an existing import when the file has one.
import { importsFor, importStatement, RUNTIME_MODULE, type Language, type ModuleKind, type RuntimeImport } from "./templates/index.js";

/** A plain insertion at an offset of the document. */
export interface Insertion {
  offset: number;
  text: string;
}

const MODULE = RUNTIME_MODULE.replace(/[/\\^$.*+?()[\]{}|-]/g, "\\$&");
const NAMED_IMPORT = new RegExp(String.raw`import\s+(type\s+)?\{([^}]*)\}\s*from\s*["']${MODULE}["']`, "g");
const DESTRUCTURED_REQUIRE = new RegExp(String.raw`(?:const|let|var)\s*\{([^}]*)\}\s*=\s*require\(\s*["']${MODULE}["']\s*\)`, "g");
const ANY_IMPORT = /^import\s(?:[^;'"]*?\sfrom\s*)?["'][^"']+["'];?/gm;

/** A JavaScript file that uses require() and no import/export is CommonJS: no `export`, no `import`. */
export function moduleKindOf(text: string, language: Language): ModuleKind {
  return language === "js" && /\brequire\s*\(/.test(text) && !/^\s*(import|export)\s/m.test(text) ? "commonjs" : "esm";
}

/** The edit that makes `needed` importable in `text`, or null when everything is already imported. */
export function planRuntimeImports(text: string, needed: readonly RuntimeImport[], language: Language): Insertion | null {
  const commonJs = moduleKindOf(text, language) === "commonjs";
  const present = commonJs ? requiredNames(text) : importedNames(text);
  const missing = importsFor(needed, language).filter((entry) => !(present.values.has(entry.name) || (entry.typeOnly && present.types.has(entry.name))));
  if (missing.length === 0) return null;

  // Merge into the first clause that can take the names (a value import, or a destructured require).
  if (present.mergeAt !== null) {
    const names = missing.map((entry) => (entry.typeOnly && !commonJs ? `type ${entry.name}` : entry.name)).join(", ");
    const { offset, empty } = present.mergeAt;
    return { offset, text: empty ? ` ${names} ` : `, ${names}` };
  }
  const statement = commonJs ? `const { ${missing.map((entry) => entry.name).join(", ")} } = require("${RUNTIME_MODULE}");` : importStatement(missing, language);
  return insertStatement(text, statement);
}

interface Present {
  values: Set<string>;
  types: Set<string>;
  /** Where a new name can be appended inside existing braces. */
  mergeAt: { offset: number; empty: boolean } | null;
}

function importedNames(text: string): Present {
  const present: Present = { values: new Set(), types: new Set(), mergeAt: null };
  for (const match of text.matchAll(NAMED_IMPORT)) {
    const typeClause = match[1] !== undefined;
    for (const specifier of splitSpecifiers(match[2]!)) {
      const typeOnly = typeClause || specifier.startsWith("type ");
      const local = specifier.replace(/^type\s+/, "");
      // `A as B` binds B, not A: only a plain specifier makes A available.
      if (/\sas\s/.test(local)) continue;
      (typeOnly ? present.types : present.values).add(local);
    }
    if (!typeClause && present.mergeAt === null) present.mergeAt = mergePoint(match.index + match[0].indexOf("{") + 1, match[2]!);
  }
  return present;
}

function requiredNames(text: string): Present {
  const present: Present = { values: new Set(), types: new Set(), mergeAt: null };
  for (const match of text.matchAll(DESTRUCTURED_REQUIRE)) {
    for (const specifier of splitSpecifiers(match[1]!)) if (!specifier.includes(":")) present.values.add(specifier);
    if (present.mergeAt === null) present.mergeAt = mergePoint(match.index + match[0].indexOf("{") + 1, match[1]!);
  }
  return present;
}

function splitSpecifiers(inside: string): string[] {
  return inside
    .split(",")
    .map((part) => part.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "").trim())
    .filter((part) => part.length > 0);
}

/** Right after the last specifier (before a trailing comma and whitespace). */
function mergePoint(braceContentStart: number, inside: string): { offset: number; empty: boolean } {
  const trimmed = inside.replace(/[\s,]*$/, "");
  return { offset: braceContentStart + trimmed.length, empty: trimmed.trim().length === 0 };
}

/** A new statement after the last import, or at the top (below a shebang line). */
function insertStatement(text: string, statement: string): Insertion {
  let lastEnd = -1;
  for (const match of text.matchAll(ANY_IMPORT)) lastEnd = match.index + match[0].length;
  if (lastEnd >= 0) {
    const lineEnd = text.indexOf("\n", lastEnd);
    return lineEnd === -1 ? { offset: text.length, text: `\n${statement}` } : { offset: lineEnd + 1, text: `${statement}\n` };
  }
  const offset = text.startsWith("#!") ? text.indexOf("\n") + 1 || text.length : 0;
  const rest = text.slice(offset);
  return { offset, text: rest.length === 0 ? `${statement}\n` : `${statement}\n\n` };
}
