import { AnalysisProject as EngineProject, type ProjectOptions } from "./engine/project.js";
import { PACKS } from "./packs/index.js";

/** The engine's project with every pack of `packs/index.ts` (or the ones given: the tests' own). */
export class AnalysisProject extends EngineProject {
  constructor(rootDir: string, options: Omit<ProjectOptions, "packs"> & Partial<Pick<ProjectOptions, "packs">> = {}) {
    super(rootDir, { ...options, packs: options.packs ?? PACKS });
  }
}
