/**
 * The hook libraries the analyzer knows: a file that references none of them (directly or through
 * a module of the same project that re-exports one) has nothing to report and gets no type
 * checking at all. Rules for other agent SDKs' hooks would add their module names here.
 */
export const HOOK_LIBRARY_MODULES: readonly string[] = ["@hooklens/runtime"];

/** Whether an import specifier names a hook library or one of its subpaths (`@hooklens/runtime/live`). */
export function isHookLibrarySpecifier(specifier: string): boolean {
  return HOOK_LIBRARY_MODULES.some((name) => specifier === name || specifier.startsWith(`${name}/`));
}

/** The HookLens runtime's package: what the rules' questions are about. */
export const RUNTIME_PACKAGE = "@hooklens/runtime";

/** Whether a module specifier names the runtime or one of its subpaths. */
export function isRuntimeSpecifier(specifier: string): boolean {
  return specifier === RUNTIME_PACKAGE || specifier.startsWith(`${RUNTIME_PACKAGE}/`);
}
