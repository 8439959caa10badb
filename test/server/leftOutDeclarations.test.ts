import { join } from "node:path";
import { ts } from "ts-morph";
import { afterAll, describe, expect, it } from "vitest";
import { leftOutOfProgram } from "../../server/src/analyzer/engine/leftOutDeclarations.js";
import { AnalysisProject } from "../../server/src/analyzer/index.js";
import { createFixture, REPO_ROOT } from "../helpers/fixtureProject.js";

const fixture = createFixture();
afterAll(() => fixture.dispose());

const zodLocale = join(REPO_ROOT, "node_modules/zod/v4/locales/en.js");
const hookFile = fixture.write(
  "src/agent.ts",
  [
    'import { HookBus, HookPoint } from "@hooklens/runtime";',
    'import type { RequestOptions } from "@hooklens/runtime";',
    "export type Request = RequestOptions;",
    "const bus = new HookBus();",
    "bus.on(HookPoint.PRE_TOOL, () => undefined);",
    "",
  ].join("\n"),
);
const localeUser = fixture.write("src/messages.ts", `import type en from ${JSON.stringify(zodLocale)};\nexport type English = typeof en;\n`);

function programOf(project: AnalysisProject, file: string): ts.Program {
  project.analyze(file);
  return project.setText(file, ts.sys.readFile(file)!).getProject().getProgram().compilerObject;
}

const isZodLocale = (path: string) => /\/node_modules\/zod\/.*locales\//.test(path);

describe("declaration modules left out of the analyzer's program", () => {
  it("leaves out zod's locale modules that zod's own declarations import, and nothing a type needs", () => {
    const project = new AnalysisProject(fixture.dir);
    const program = programOf(project, hookFile);
    const files = program.getSourceFiles().map((file) => file.fileName);
    expect(files.filter(isZodLocale)).toEqual([]);
    // zod itself is there, and the runtime's zod-typed exports keep their types.
    expect(files.some((path) => /\/node_modules\/zod\/.*schemas\.d\.c?ts$/.test(path))).toBe(true);
    const checker = program.getTypeChecker();
    const alias = program.getSourceFile(hookFile)!.statements.find(ts.isTypeAliasDeclaration)!;
    const request = checker.getTypeAtLocation(alias.name);
    expect(request.flags & ts.TypeFlags.Any).toBe(0);
    expect(["shape", "parse", "safeParse"].filter((name) => request.getProperty(name))).toEqual(["shape", "parse", "safeParse"]);
  });

  it("keeps a locale module that a project file imports itself", () => {
    const project = new AnalysisProject(fixture.dir);
    const files = programOf(project, localeUser).getSourceFiles().map((file) => file.fileName);
    expect(files.filter(isZodLocale).map((path) => path.replace(/^.*\/locales\//, ""))).toEqual(["en.d.ts"]);
  });

  it("names only zod's locale modules reached from zod's own files", () => {
    const zod = "/app/node_modules/zod/v4";
    expect(leftOutOfProgram(`${zod}/core/index.d.cts`, `${zod}/locales/index.d.cts`)).toBe(true);
    expect(leftOutOfProgram(`${zod}/locales/index.d.ts`, `${zod}/locales/fr.d.ts`)).toBe(true);
    expect(leftOutOfProgram("/app/node_modules/.pnpm/zod@4.6.7/node_modules/zod/v4/core/index.d.ts", "/app/node_modules/.pnpm/zod@4.6.7/node_modules/zod/v4/locales/index.d.ts")).toBe(true);
    expect(leftOutOfProgram(`${zod}/core/index.d.cts`, `${zod}/core/schemas.d.cts`)).toBe(false);
    expect(leftOutOfProgram("/app/src/messages.ts", `${zod}/locales/en.d.ts`)).toBe(false);
    expect(leftOutOfProgram("/app/node_modules/other/index.d.ts", "/app/node_modules/other/locales/en.d.ts")).toBe(false);
  });
});
