import { afterAll, describe, expect, it } from "vitest";
import { AnalysisProject } from "../../server/src/analyzer/index.js";
import { createFixture } from "../helpers/fixtureProject.js";
import { HANDLER_FORMS, IMPORT_FORMS, RULE_CASES, type Handler, type HandlerForm, type ImportForm, type RuleCase } from "./formMatrix.js";

interface Cell {
  label: string;
  code: string;
  trap: boolean;
  files: Record<string, string>;
}

/** One file (and its project modules) per rule × import form × handler form, trap and clean. */
function cells(): Cell[] {
  const made: Cell[] = [];
  let n = 0;
  for (const rule of RULE_CASES) {
    for (const form of IMPORT_FORMS) {
      const handlerForms: (HandlerForm | null)[] = rule.handler ? [...HANDLER_FORMS] : [null];
      for (const handlerForm of handlerForms) {
        for (const trap of [true, false]) {
          const dir = `c${n++}`;
          made.push({ label: `${rule.code} ${trap ? "trap" : "clean"}: ${form.name} import, ${handlerForm?.name ?? "inline"} handler`, code: rule.code, trap, files: written(rule, form, handlerForm, trap, dir) });
        }
      }
    }
  }
  return made;
}

function written(rule: RuleCase, form: ImportForm, handlerForm: HandlerForm | null, trap: boolean, dir: string): Record<string, string> {
  const handler: Handler | undefined = trap ? rule.handler : rule.clean.handler;
  const names = [...new Set([...rule.names, ...(handler?.uses ?? [])])];
  const header = form.header(names);
  const withRefs = (h: Handler): Handler => ({ ...h, body: h.body.replaceAll("STOP", form.ref("StopHook")) });
  const placed = handler && handlerForm ? handlerForm.place(withRefs(handler), form.ref, form.header(handler.uses ?? [])) : { expression: "", declarations: "", files: {} };
  const body = trap || !rule.clean.text ? rule.trap(form.ref, placed.expression) : rule.clean.text(form.ref, placed.expression);
  const main = `${header}\n${placed.declarations}${body}\nexport {};\n`;
  const files: Record<string, string> = { [`${dir}/main.ts`]: main };
  for (const [path, text] of Object.entries({ ...form.files, ...placed.files })) files[`${dir}/${path}`] = text;
  return files;
}

const CELLS = cells();
const fixture = createFixture();
afterAll(() => fixture.dispose());

describe("every rule in every import form and handler form (issue 32 item 4)", { timeout: 600_000 }, () => {
  it("finds the traps (recall ≥ 0.95) and stays silent on their clean look-alikes (precision ≥ 0.95)", () => {
    for (const cell of CELLS) for (const [path, text] of Object.entries(cell.files)) fixture.write(path, text);
    const project = new AnalysisProject(fixture.dir);
    const missed: string[] = [];
    const wrong: string[] = [];
    let found = 0;
    let falseAlarms = 0;
    for (const cell of CELLS) {
      const main = Object.keys(cell.files)[0]!;
      const result = project.analyze(fixture.path(main));
      expect(result.failures, cell.label).toEqual([]);
      const reported = result.findings.some((f) => f.code === cell.code);
      if (cell.trap && reported) found++;
      else if (cell.trap) missed.push(cell.label);
      else if (reported) {
        falseAlarms++;
        wrong.push(cell.label);
      }
    }
    const traps = CELLS.filter((c) => c.trap).length;
    const recall = found / traps;
    const precision = found / (found + falseAlarms);
    console.log(`form matrix: ${traps} traps, ${CELLS.length - traps} clean; recall ${recall.toFixed(3)}, precision ${precision.toFixed(3)}\nmissed:\n  ${missed.join("\n  ")}\nfalse alarms:\n  ${wrong.join("\n  ")}`);
    expect(recall).toBeGreaterThanOrEqual(0.95);
    expect(precision).toBeGreaterThanOrEqual(0.95);
  });
});
