import { readTextIfAny } from "./reach/diskFiles.js";
import { Project, ts, type SourceFile } from "ts-morph";
import { analysisLib } from "./analysisLib.js";
import { analyzeSourceFile, type AnalysisNotice, type AnalysisResult, type AnalyzeOptions } from "./analyze.js";
import { sharePackageJsonCache } from "./packageJsonCache.js";
import { bareParse, BufferParses, parseOnlyNotices } from "./parseOnlyNotices.js";
import { LibraryParses } from "./libraryParses.js";
import { HookLibraryReach, reachModules } from "./reach/hookLibraryReach.js";
import { followImportsIn, type ProjectModules } from "./importedDeclarations.js";
import { PackageNames } from "./reach/packageNames.js";
import { HookLibraries } from "./hookLibraries.js";
import type { Pack } from "./pack.js";
import { noStats, projectCompilerOptions, type ProjectOptions, type ProjectStats } from "./projectOptions.js";
import { ProgramImports } from "./programImports.js";
import { shippedLibFolder } from "./shippedLib.js";
import { isAnalyzedExtension } from "./unreadableFile.js";
import { literalsRulesHeld, reuseAfterNeutralEdit, type ReusableAnalysis } from "./neutralEdit.js";
import { recordTextReads } from "./textReads.js";
import { reparseIncrementally } from "./incrementalReparse.js";
import { reachedFrom, ReferenceEdges } from "./referenceEdges.js";
import { RuntimeSide } from "./reach/runtimeSide.js";
import { chooseProgramRoots, programBuilt, programStructureReuse, resetProgram, watchHeldFiles } from "./tsMorphInternals.js";

export { ANALYZED_EXTENSIONS } from "./unreadableFile.js";
export type { ProjectOptions, ProjectStats } from "./projectOptions.js";

/**
 * One long-lived ts-morph project for a folder: the folder's tsconfig.json when it has one
 * (imports then resolve exactly as in the user's build), otherwise sensible defaults.
 *
 * Cost is paid only where a hook library is in reach. Editor buffers are kept as text and enter
 * the ts-morph project only when a file that uses a hook library is analysed; a file that cannot
 * reach one is answered from a syntactic scan, with no program and no type checker. The program
 * holds the analysed files, what they import directly, the project modules that hand a hook
 * library on, and packages; other project modules further away are left out (their imports type
 * as `any`), which keeps a program over a large workspace small. Files no longer needed are dropped.
 */
export class AnalysisProject {
  readonly rootDir: string;
  readonly stats: ProjectStats = noStats();

  readonly #project: Project;
  readonly #reach: HookLibraryReach;
  /**
   * What an analysis knows of the project's modules: the reach's export shapes, and (unless the
   * project was made with `followImports: false`) the trees and program resolutions that let
   * syntax follow an import into a project module (importedDeclarations.ts).
   */
  readonly #modules: ProjectModules | HookLibraryReach;
  /** Editor buffers by path, and those whose text the ts-morph project does not have yet. */
  readonly #buffers = new Map<string, string>();
  readonly #unsynced = new Set<string>();
  /** Files added to the ts-morph project (the program's roots). */
  readonly #roots = new Set<string>();
  /** Which modules the programs hold, and what each file's imports resolved to there. */
  readonly #programImports: ProgramImports;
  #pruneDue = false;
  /**
   * The last analysis of each editor buffer, with `changes` as it stood then. Any change to another
   * file or to the program bumps `changes`, so an analysis is reused only while its own buffer is
   * the one thing that changed since.
   */
  readonly #reusable = new Map<string, { analysis: ReusableAnalysis; changes: number }>();
  /** Parse-only trees of buffers that cannot reach a hook library, updated incrementally. */
  readonly #bufferParses = new BufferParses();
  /** Library declaration files (packages, @types, the standard library), parsed without JSDoc. */
  readonly #libraryParses: LibraryParses;
  /**
   * Whether ts-morph holds a file, by path, as last looked up; emptied whenever it adds or removes
   * one. Each program asks this of every package file it keeps (hundreds), and ts-morph's own
   * lookup normalises the path every time. Null when its add and remove events cannot be watched.
   */
  #heldKnown: Map<string, boolean> | null = null;
  /** Package names by folder, for the reach and every analysis's runtime resolver. */
  readonly #packageNames = new PackageNames();
  /** Which files of the program are on the runtime's side, found again at each analysis (only changed files are read again). */
  readonly #runtimeSide: RuntimeSide | undefined;
  #changes = 0;
  readonly #packs: readonly Pack[];
  readonly #libraries: HookLibraries;

  /**
   * `tsConfigFilePath` names another tsconfig than the folder's own (the CLI's `--project`).
   * `libraryParses`: parsed library declaration files shared with earlier projects of the same
   * folder and tsconfig (the CLI's batches), which then parse and bind them once; their parses
   * are not counted in this project's {@link stats}. `importLists`: the module specifiers of
   * the project's files kept from an earlier start (the server's), checked against each file's
   * size and mtime; `referenceLists`: likewise, the references the runtime's-side walk reads (see
   * `reach/runtimeSide.ts`). `followImports: false` leaves every question about an imported name to the
   * checker (the tests compare the two).
   */
  constructor(rootDir: string, options: ProjectOptions) {
    this.rootDir = rootDir;
    this.#packs = options.packs;
    this.#libraries = new HookLibraries(options.packs.map((pack) => pack.library));
    this.#libraryParses = options.libraryParses ?? new LibraryParses(() => this.stats.packageFilesParsed++);
    // A method, not an arrow: TypeScript calls it on the compiler host, which it then reaches as `this`.
    const project = this;
    const resolutionHost = () => ({
      resolveModuleNames(this: unknown, names: string[], containingFile: string) {
        sharePackageJsonCache(this, project.#project.getCompilerOptions(), rootDir);
        project.#libraryParses.install(this, (path) => project.#holds(path));
        const note = (module: ts.ResolvedModuleFull) => project.#libraryParses.noteResolution(containingFile, module);
        const resolved = names.map((name) => project.#programImports.resolve(name, containingFile, note));
        project.#programImports.edges.set(
          containingFile,
          resolved.flatMap((module) => (module ? [module.resolvedFileName] : [])),
        );
        return resolved;
      },
    });
    this.#project = new Project({
      compilerOptions: projectCompilerOptions(rootDir, options),
      resolutionHost,
      libFolderPath: shippedLibFolder(),
    });
    // A program's roots are the analysed files, not every file ts-morph holds: the files a program
    // loads join ts-morph's list, so the next program's root names differed from this one's and
    // TypeScript rebuilt it whole (the first edit after opening a file). Imports still load.
    const rootsChosen = chooseProgramRoots(this.#project, (names) => names.filter((name) => this.#roots.has(name)));
    if (watchHeldFiles(this.#project, () => this.#heldKnown?.clear())) this.#heldKnown = new Map();
    const lib = analysisLib(this.#project.getCompilerOptions());
    if (lib) this.#project.compilerOptions.set({ lib });
    this.#reach = new HookLibraryReach(this.#libraries, this.#project.getCompilerOptions(), (path) => this.#buffers.get(path), rootDir, {
      packages: this.#packageNames,
      importLists: options.importLists,
      onListed: () => this.stats.filesListed++,
    });
    const reach = this.#reach;
    this.#programImports = new ProgramImports(reach, this.#libraries, this.#roots);
    if (options.followImports === false) this.#modules = reach;
    else {
      const runtimeSide = new RuntimeSide({
        // ts-morph makes every file it holds a root when its roots cannot be chosen.
        roots: () => (rootsChosen ? this.#roots : this.#project.getSourceFiles().map((file) => file.getFilePath())),
        resolve: (specifier, from) => reach.resolve(specifier, from),
        isRuntimeFile: (path) => reach.isHookLibraryFile(path),
        isRuntimeSpecifier: (specifier) => reach.isHookLibrarySpecifier(specifier),
        bufferText: (path) => this.#buffers.get(path),
        options: this.#project.getCompilerOptions(),
        typeDirectories: [...new Set([rootDir, process.cwd()])],
      }, { savedReferences: options.referenceLists, onScanned: () => this.stats.filesScanned++ });
      this.#runtimeSide = runtimeSide;
      this.#modules = {
        ...reachModules(reach),
        moduleFile: (path) => this.#moduleFile(path),
        resolveForProgram: (specifier, from) => this.#programImports.followed(specifier, from),
        isOffRuntimeSide: (specifier, importer) => runtimeSide.isOffSide(specifier, importer),
      };
      followImportsIn(this.#project, this.#modules);
    }
  }

  /** Records an editor buffer's text. Cheap: nothing is parsed until a file that uses a hook library needs it. */
  setBuffer(filePath: string, text: string): void {
    if (this.#buffers.get(filePath) === text) return;
    this.#buffers.set(filePath, text);
    this.#unsynced.add(filePath);
    this.#reach.changed(filePath);
    this.#changed(filePath);
  }

  /** Something changed; `own` (an edited buffer) keeps its last analysis if nothing else changed since. */
  #changed(own?: string): void {
    const held = own === undefined ? undefined : this.#reusable.get(own);
    const current = held?.changes === this.#changes;
    this.#changes++;
    if (held && current) held.changes = this.#changes;
  }

  /** Sets a file's text (an open editor buffer) and returns it parsed; replaces any earlier version. */
  setText(filePath: string, text: string): SourceFile {
    this.setBuffer(filePath, text);
    return this.#sync(filePath);
  }

  /** Reads a file from disk into the project (or refreshes it). */
  addFromDisk(filePath: string): SourceFile {
    this.#changed();
    const newRoot = !this.#roots.has(filePath);
    this.#roots.add(filePath);
    const existing = this.#project.getSourceFile(filePath);
    if (existing) {
      void existing.refreshFromFileSystemSync();
      // Held already (an import a program or syntax read): unchanged on disk, ts-morph would keep its program's roots.
      if (newRoot) resetProgram(this.#project);
      return existing;
    }
    return this.#project.addSourceFileAtPath(filePath);
  }

  /** Forgets a file (closed or deleted), and later what only it needed. */
  remove(filePath: string): void {
    this.#buffers.delete(filePath);
    this.#unsynced.delete(filePath);
    this.#reusable.delete(filePath);
    this.#bufferParses.forget(filePath);
    this.#changed();
    this.#reach.changed(filePath);
    this.#runtimeSide?.changed(filePath);
    if (this.#roots.delete(filePath)) this.#pruneDue = true;
    const file = this.#project.getSourceFile(filePath);
    if (file) this.#project.removeSourceFile(file);
  }

  /** A file changed on disk (not through an editor buffer): what was derived from it is read again, or forgotten when deleted. */
  fileChangedOnDisk(filePath: string, deleted: boolean): void {
    if (this.#buffers.has(filePath)) return; // the open buffer is what counts
    this.#changed();
    this.#reach.changed(filePath);
    this.#runtimeSide?.changed(filePath);
    if (this.#libraryParses.forget(filePath)) {
      // Not a file of the ts-morph project: adding and removing one makes the next program read it again.
      this.#project.removeSourceFile(this.#project.createSourceFile(filePath, "", { overwrite: true }));
      return;
    }
    const file = this.#project.getSourceFile(filePath);
    if (!file) return;
    if (deleted) this.#project.removeSourceFile(file);
    else void file.refreshFromFileSystemSync();
  }


  has(filePath: string): boolean {
    return this.#project.getSourceFile(filePath) !== undefined;
  }

  /** Whether nothing is open or analysed here any more (the project can be dropped). */
  isIdle(): boolean {
    return this.#buffers.size === 0 && this.#roots.size === 0;
  }

  /** Whether analysing this file needs a program that has not been built yet (the slow first time). */
  needsProgram(filePath: string): boolean {
    return this.#roots.size === 0 && this.usesHookLibrary(filePath);
  }

  /** Whether a file can reach a hook library at all (a syntactic answer, cached per file). */
  usesHookLibrary(filePath: string): boolean {
    return this.#reach.usesHookLibrary(filePath);
  }

  analyze(filePath: string, options?: AnalyzeOptions): AnalysisResult {
    // A superseded version is not worth a program build.
    if (options?.isCancelled?.()) return { findings: [], failures: [], notices: [] };
    if (!this.usesHookLibrary(filePath)) {
      this.stats.skippedAnalyses++;
      return { findings: [], failures: [], notices: this.#parseOnlyNotices(filePath) };
    }
    const reused = options?.rules ? undefined : this.#reuse(filePath);
    if (reused) {
      this.stats.reusedAnalyses++;
      return reused;
    }
    const file = this.#buffers.has(filePath) ? this.#sync(filePath) : (this.#project.getSourceFile(filePath) ?? this.addFromDisk(filePath));
    this.#syncBuffers();
    this.#runtimeSide?.refresh();
    this.stats.checkedAnalyses++;
    const { value: result, reads } = recordTextReads(() => analyzeSourceFile(file, this.#packs, { ...options, modules: this.#modules, packageNames: this.#packageNames }));
    if (programStructureReuse(this.#project) === 0) this.stats.programsBuiltWhole++;
    // The prune reads the program's files: it waits for an analysis that built one anyway (one
    // settled by syntax alone would otherwise build a whole program just to prune after a close).
    if (this.#pruneDue && programBuilt(this.#project) !== false) this.#prune();
    // Kept for the next version of an editor buffer, unless cut short (a newer version arrived) or run with other rules.
    if (this.#buffers.has(filePath) && !options?.rules && !options?.isCancelled?.()) {
      const analysis = { text: file.compilerNode.text, tree: file.compilerNode, result, reads: [...reads(file), ...literalsRulesHeld(file)] };
      this.#reusable.set(filePath, { analysis, changes: this.#changes });
    }
    return result;
  }

  /** The buffer's previous findings, moved, when only this buffer changed since and by an edit that cannot change them. */
  #reuse(filePath: string): AnalysisResult | undefined {
    const held = this.#reusable.get(filePath);
    const text = this.#buffers.get(filePath);
    if (!held || text === undefined || held.changes !== this.#changes) return undefined;
    if (text === held.analysis.text) return held.analysis.result;
    const target = this.#project.getCompilerOptions().target ?? ts.ScriptTarget.Latest;
    const next = reuseAfterNeutralEdit(held.analysis, text, filePath, target);
    if (next) held.analysis = next;
    return next?.result;
  }

  /** Whether the ts-morph project holds a file (its own parse then serves the program, not a package parse). */
  #holds(path: string): boolean {
    const known = this.#heldKnown?.get(path);
    if (known !== undefined) return known;
    this.stats.heldFileLookups++;
    const held = this.#project.getSourceFile(path) !== undefined;
    this.#heldKnown?.set(path, held);
    return held;
  }

  /** Syntax errors of a file no rule needs to look at: from the tree the project holds for its current text, else from a bare parse. */
  #parseOnlyNotices(filePath: string): AnalysisNotice[] {
    const held = this.#unsynced.has(filePath) ? undefined : this.#project.getSourceFile(filePath);
    if (held) return parseOnlyNotices(filePath, () => held.compilerNode);
    const buffer = this.#buffers.get(filePath);
    if (buffer !== undefined) return parseOnlyNotices(filePath, () => this.#bufferParses.parse(filePath, buffer));
    const text = readTextIfAny(filePath);
    return text === undefined ? [] : parseOnlyNotices(filePath, () => bareParse(filePath, text));
  }

  /** Puts `filePath`'s buffer into the ts-morph project (a program root), and any other edited buffer the project already holds. */
  #sync(filePath: string): SourceFile {
    const newRoot = !this.#roots.has(filePath);
    this.#roots.add(filePath);
    let file = this.#project.getSourceFile(filePath);
    if (!file || this.#unsynced.has(filePath)) file = this.#putBuffer(filePath, file);
    // Held already with this text (put there as another file's buffer): ts-morph sees no change,
    // so its program would keep the roots it had, without this one.
    else if (newRoot && !resetProgram(this.#project)) file = this.#project.createSourceFile(filePath, file.getFullText(), { overwrite: true });
    for (const path of [...this.#unsynced]) {
      const held = this.#project.getSourceFile(path);
      if (held) this.#putBuffer(path, held);
    }
    return file;
  }

  /** Puts a buffer's text into the ts-morph project: the edited region re-parsed when the file is there already, else parsed whole. */
  #putBuffer(filePath: string, file: SourceFile | undefined): SourceFile {
    const text = this.#buffers.get(filePath) ?? "";
    this.#unsynced.delete(filePath);
    if (file) {
      // The incremental parser moves the old tree's nodes in place: a neutral-edit check kept for
      // this buffer must not read it any more (neutralEdit.ts parses the old text again if needed).
      const held = this.#reusable.get(filePath);
      if (held?.analysis.tree === file.compilerNode) held.analysis = { ...held.analysis, tree: undefined };
      if (reparseIncrementally(file, text)) {
        this.stats.buffersReparsedIncrementally++;
        return file;
      }
    }
    this.stats.buffersParsedWhole++;
    return this.#project.createSourceFile(filePath, text, { overwrite: true });
  }

  /**
   * Every other edited buffer's text goes into the ts-morph project before an analysis, so a
   * program built for it reads any buffer it loads (an import of the analysed file) with its
   * edited text. Finding out which buffers a program loads meant building the program first: at
   * every analysis while any other file was open, even one syntax settles. A buffer put here is
   * no program root; it costs a parse (incremental once held) per change of its text. One that
   * TypeScript's parser gives up on is left out (it is reported on its own, as not analysed; a
   * program could not load it either), once per version of its text.
   */
  #syncBuffers(): void {
    for (const path of [...this.#unsynced]) {
      if (!isAnalyzedExtension(path)) continue;
      try {
        this.#putBuffer(path, this.#project.getSourceFile(path));
      } catch {
        // #putBuffer took it off the unsynced list first: its next version is tried again.
      }
    }
  }

  /**
   * A project module's tree for syntax to read, as the program would hold it: the editor buffer's
   * current text, else the file on disk, added to the ts-morph project (not as a program root) so
   * a program built later takes this same tree and the checker answers with the same nodes.
   */
  #moduleFile(path: string): SourceFile | undefined {
    const held = this.#project.getSourceFile(path);
    if (this.#buffers.has(path)) return held && !this.#unsynced.has(path) ? held : this.#putBuffer(path, held);
    return held ?? this.#project.addSourceFileAtPathIfExists(path);
  }

  /**
   * Drops modules that no analysed file reaches any more (after a file was closed). ts-morph makes
   * every file it holds a root of the next program, so what is not removed here would stay forever.
   * Until a program is built (analyses syntax settles build none), the closed files' modules stay
   * held; the whole project is dropped once nothing is open.
   */
  #prune(): void {
    this.#pruneDue = false;
    this.#changed();
    const known = new Set([...this.#programImports.edges.keys(), ...[...this.#programImports.edges.values()].flat()]);
    const reached = reachedFrom(this.#roots, this.#programImports.edges, new ReferenceEdges(this.#project.getProgram().compilerObject));
    for (const path of known) {
      if (reached.has(path)) continue;
      this.#programImports.edges.delete(path);
      this.#libraryParses.forget(path);
      const file = this.#project.getSourceFile(path);
      if (file) this.#project.removeSourceFile(file);
    }
  }
}

