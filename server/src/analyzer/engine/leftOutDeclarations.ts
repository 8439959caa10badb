/**
 * Declaration modules that packages' own declarations import but that the analyzer's program
 * leaves out. Every file in a program costs a module resolution, a read, a parse and binding, at
 * every start while the JIT is still cold (~1.5 ms even for a file of one declaration), and no
 * question a rule asks can lead to these: zod's translated error messages (`z.locales.*`, 64
 * modules of one function each, reached from zod's entry points only through
 * `export * as locales`). Left out, `z.locales` is `any` to the analyzer; schemas, inferred types
 * and errors are untouched. Only imports made inside the package are left out: a project file
 * that imports one of these modules itself still gets it.
 */
const ZOD = "/node_modules/zod/";
const ZOD_LOCALES = /^(?:[^/]+\/)*locales\/[^/]+$/;

export function leftOutOfProgram(containingFile: string, resolvedFileName: string): boolean {
  const at = resolvedFileName.lastIndexOf(ZOD);
  return at >= 0 && containingFile.includes(ZOD) && ZOD_LOCALES.test(resolvedFileName.slice(at + ZOD.length));
}
