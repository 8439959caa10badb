import { dirname, resolve } from "node:path";
import { ts } from "ts-morph";

/**
 * A tsconfig's compiler options, as TypeScript reads them (its `extends` chain followed), without
 * listing the files it includes. The analyzer takes its files from the editor and their imports,
 * never from the tsconfig; ts-morph, given the tsconfig, walked the whole folder tree to list them
 * at every project start (~30 ms for the bench's 1,000 files, growing with the workspace).
 * `host` reads the tsconfig and what it extends; it is never asked to list a folder.
 */
export function tsconfigCompilerOptions(path: string, host: Pick<ts.ParseConfigHost, "fileExists" | "readFile" | "useCaseSensitiveFileNames"> = ts.sys): ts.CompilerOptions {
  path = resolve(path);
  const { config, error } = ts.readConfigFile(path, (file) => host.readFile(file));
  // As ts-morph did: a tsconfig that is not JSON stops the project.
  if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, "\n"));
  const noListing: ts.ParseConfigHost = {
    useCaseSensitiveFileNames: host.useCaseSensitiveFileNames,
    fileExists: (file) => host.fileExists(file),
    readFile: (file) => host.readFile(file),
    readDirectory: () => [],
  };
  return ts.parseJsonConfigFileContent(config, noListing, dirname(path), undefined, path).options;
}
