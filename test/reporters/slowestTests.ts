import type { Reporter, TestModule } from "vitest/node";

const SHOWN = 10;

/**
 * Prints the ten slowest tests after a run, so a test that grows slow (or a machine that is
 * loaded) shows up in every run's output rather than only as a timeout.
 */
export default class SlowestTests implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const timings: { name: string; ms: number }[] = [];
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const duration = test.diagnostic()?.duration;
        if (duration !== undefined) timings.push({ name: `${module.relativeModuleId} > ${test.fullName}`, ms: duration });
      }
    }
    if (timings.length === 0) return;
    timings.sort((a, b) => b.ms - a.ms);
    const lines = timings.slice(0, SHOWN).map(({ name, ms }) => `${(ms / 1000).toFixed(2).padStart(8)} s  ${name}`);
    process.stdout.write(`\nThe ${Math.min(SHOWN, timings.length)} slowest tests:\n${lines.join("\n")}\n`);
  }
}
