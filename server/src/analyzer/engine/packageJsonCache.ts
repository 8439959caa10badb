import { ts } from "ts-morph";

/**
 * Gives the compiler host ts-morph builds a module resolution cache that lives as long as the
 * project, for the package.json facts TypeScript reads while building a program. Without one,
 * every rebuild (one per edit) looked up and parsed the package.json above each declaration file
 * under node_modules (the lib files and zod's 94 files: several ms per edit). ts-morph passes on
 * only our `resolveModuleNames`, which TypeScript calls as a method of that host, so the host is
 * reached there; the next program fills the cache, and every rebuild after it reads from it. A changed package.json
 * makes the server start a new project (and so a new cache).
 */
export function sharePackageJsonCache(host: unknown, options: ts.CompilerOptions, currentDirectory: string): void {
  const compilerHost = host as Partial<ts.CompilerHost> | undefined;
  if (!compilerHost || typeof compilerHost !== "object" || compilerHost.getModuleResolutionCache) return;
  const cache = ts.createModuleResolutionCache(currentDirectory, (name) => name, options);
  compilerHost.getModuleResolutionCache = () => cache;
}
