// Names become function and class names in generated code, so they must be plain identifiers.

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

// Reserved in strict-mode modules (where generated code lives), plus names that would shadow
// what the templates import.
const RESERVED = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends false finally for function if " +
    "import in instanceof new null return super switch this throw true try typeof var void while with yield let static " +
    "implements interface package private protected public await arguments eval undefined NaN Infinity"
  ).split(" "),
);

const RUNTIME_NAMES = new Set(["AgentSpec", "HookBus", "HookPoint", "HookRegistry", "Hook", "ShortCircuit", "StreamHandler", "PayloadOf"]);

/** Why `name` cannot be used, or undefined when it can. */
export function identifierProblem(name: string): string | undefined {
  if (name.length === 0) return "Enter a name.";
  if (name.length > 100) return "Use a name of at most 100 characters.";
  if (!IDENTIFIER.test(name)) {
    return /^[0-9]/.test(name)
      ? "A name cannot start with a digit."
      : "Use letters, digits, _ or $ only (a JavaScript identifier, such as auditToolCalls).";
  }
  if (RESERVED.has(name)) return `"${name}" is a reserved word in JavaScript.`;
  if (RUNTIME_NAMES.has(name)) return `"${name}" would clash with the @hooklens/runtime import of the same name.`;
  return undefined;
}

/** `auditCalls` → `AuditCalls`, for derived names such as registerAuditCalls. */
export function capitalize(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}
