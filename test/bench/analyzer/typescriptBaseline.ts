import { dirname } from "node:path";
import { ts } from "ts-morph";

/**
 * What TypeScript itself (the compiler ts-morph carries, so the same version the server runs)
 * costs per edit of a file, measured in the bench's own process as an
 * editor's TypeScript service does it: parse the new text, rebuild the program from the previous
 * one (unchanged files reused), and check the edited file completely.
 */
export class TypeScriptBaseline {
  readonly #options: ts.CompilerOptions;
  readonly #host: ts.CompilerHost;
  readonly #cache = new Map<string, ts.SourceFile>();
  readonly #texts = new Map<string, string>();
  #program: ts.Program | undefined;

  constructor(tsconfigPath: string) {
    const config = ts.readConfigFile(tsconfigPath, ts.sys.readFile).config as object;
    this.#options = ts.parseJsonConfigFileContent(config, ts.sys, dirname(tsconfigPath)).options;
    const host = ts.createCompilerHost(this.#options);
    const read = host.getSourceFile.bind(host);
    host.getSourceFile = (fileName, languageVersion) => {
      const edited = this.#texts.get(fileName);
      if (edited !== undefined) return ts.createSourceFile(fileName, edited, languageVersion, true);
      let cached = this.#cache.get(fileName);
      if (!cached) this.#cache.set(fileName, (cached = read(fileName, languageVersion)!));
      return cached;
    };
    this.#host = host;
  }

  /** CPU µs to parse `text` as a source file. */
  parse(fileName: string, text: string): number {
    return cpuMicros(() => ts.createSourceFile(fileName, text, ts.ScriptTarget.ES2022, true));
  }

  /** CPU µs to rebuild the program with `text` for `fileName` and check that file fully. */
  check(fileName: string, text: string): number {
    this.#texts.set(fileName, text);
    return cpuMicros(() => {
      this.#program = ts.createProgram([fileName], this.#options, this.#host, this.#program);
      const file = this.#program.getSourceFile(fileName)!;
      return this.#program.getSyntacticDiagnostics(file).length + this.#program.getSemanticDiagnostics(file).length;
    });
  }
}

export function cpuMicros(fn: () => unknown): number {
  const start = process.cpuUsage();
  fn();
  const used = process.cpuUsage(start);
  return used.user + used.system;
}
