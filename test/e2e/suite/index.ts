import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Mocha from "mocha";

/** Entry point the extension host calls: runs every compiled *.test.js beside this file. */
export function run(): Promise<void> {
  // HOOKLENS_E2E_GREP runs only the tests whose full title matches (a quick run of one area).
  const mocha = new Mocha({ ui: "bdd", timeout: 90_000, color: false, ...(process.env["HOOKLENS_E2E_GREP"] ? { grep: process.env["HOOKLENS_E2E_GREP"] } : {}) });
  for (const file of readdirSync(__dirname).filter((f) => f.endsWith(".test.js")).sort()) mocha.addFile(join(__dirname, file));
  return new Promise((resolve, reject) => {
    const runner = mocha.run((failures) => {
      const results = process.env["HOOKLENS_E2E_RESULTS"];
      if (results) writeFileSync(results, JSON.stringify({ passed: runner.stats?.passes ?? 0, failed: failures }));
      if (failures > 0) reject(new Error(`${failures} end-to-end test(s) failed`));
      else resolve();
    });
  });
}
