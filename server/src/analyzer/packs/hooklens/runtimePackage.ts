/** The HookLens runtime's package: what this pack's rules' questions are about. */
export const RUNTIME_PACKAGE = "@hooklens/runtime";

/** Whether a module specifier names the runtime or one of its subpaths (`@hooklens/runtime/live`). */
export function isRuntimeSpecifier(specifier: string): boolean {
  return specifier === RUNTIME_PACKAGE || specifier.startsWith(`${RUNTIME_PACKAGE}/`);
}
