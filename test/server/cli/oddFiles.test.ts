import { spawn } from "node:child_process";
import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundleServer } from "../../helpers/bundleServer.js";
import { createFixture, type Fixture } from "../../helpers/fixtureProject.js";

// One odd entry in a tree must never stop `hooklens check`, hang it, or send it through the disk:
// each case is a folder holding one odd entry beside a file with a finding, which must still be reported.
const DORMANT = `import { hook } from "@hooklens/runtime";\nexport const h = hook("api.stream_chunk")(() => 1);\n`;

let cli: string;
let fixture: Fixture;

interface OddCase {
  name: string;
  /** Creates the odd entry inside `dir`. */
  make: (dir: string) => void;
  args?: (dir: string) => string[];
  /** The `incomplete` line expected for the odd entry, or null when it is passed over without a word. */
  notice: RegExp | null;
}

const mkfifo = (path: string) => execFileSync("mkfifo", [path]);

const CASES: OddCase[] = [
  { name: "a dangling symbolic link", make: (d) => symlinkSync("/nonexistent", join(d, "README.md")), notice: /README\.md:1:1 {2}incomplete {2}Not analysed: a broken symbolic link/ },
  { name: "a dangling link named like a source file", make: (d) => symlinkSync(join(d, "gone.ts"), join(d, "link.ts")), notice: /link\.ts:1:1 {2}incomplete {2}Not analysed: a broken symbolic link/ },
  { name: "a link that loops", make: (d) => { symlinkSync(join(d, "b.ts"), join(d, "a.ts")); symlinkSync(join(d, "a.ts"), join(d, "b.ts")); }, notice: /a\.ts:1:1 {2}incomplete {2}Not analysed: a symbolic link that loops/ },
  { name: "a link to the root folder", make: (d) => symlinkSync("/", join(d, "root")), notice: null },
  { name: "a link back up the tree", make: (d) => symlinkSync(d, join(d, "again")), notice: null },
  { name: "a FIFO named like a source file", make: (d) => mkfifo(join(d, "pipe.ts")), notice: /pipe\.ts:1:1 {2}incomplete {2}Not analysed: not a regular file \(a FIFO\)/ },
  { name: "a FIFO with another name", make: (d) => mkfifo(join(d, "events")), notice: null },
  { name: "a FIFO named on the command line", make: (d) => mkfifo(join(d, "named.ts")), args: (d) => [d, join(d, "named.ts")], notice: /named\.ts:1:1 {2}incomplete {2}Not analysed: not a regular file \(a FIFO\)/ },
  { name: "a file over the size limit", make: (d) => writeFileSync(join(d, "bundle.js"), `export const data = "${"x".repeat(1_100_000)}";\n`), notice: /bundle\.js:1:1 {2}incomplete {2}Not analysed: 1,100,024 bytes is over the size limit of 1 MB \(--max-file-size\)/ },
  { name: "a file over a lowered size limit", make: (d) => writeFileSync(join(d, "big.ts"), `export const x = "${"y".repeat(3000)}";\n`), args: (d) => [d, "--max-file-size", "2KB"], notice: /big\.ts:1:1 {2}incomplete {2}Not analysed: 3,021 bytes is over the size limit of 2 KB/ },
];

beforeAll(async () => {
  ({ cli } = await bundleServer());
  fixture = createFixture();
  for (const [i, c] of CASES.entries()) {
    const dir = join(fixture.dir, `case${i}`);
    mkdirSync(dir);
    fixture.write(`case${i}/dormant.ts`, DORMANT);
    c.make(dir);
  }
  // --project: a FIFO among the files a tsconfig takes in.
  // TypeScript's own folder listing passes over a FIFO, but a tsconfig can name one in `files`.
  fixture.write("proj/tsconfig.json", JSON.stringify({ compilerOptions: { strict: true }, files: ["src/dormant.ts", "src/fifo.ts"] }));
  fixture.write("proj/src/dormant.ts", DORMANT);
  mkfifo(join(fixture.dir, "proj/src/fifo.ts"));
}, 120_000);
afterAll(() => fixture.dispose());

/** Runs the CLI with a generous bound: a hang is a failure to report, not a test that never ends. */
function hooklens(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd: fixture.dir });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), 90_000);
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

describe("hooklens check never dies on one odd file", { timeout: 120_000 }, () => {
  it.each(CASES.map((c, i) => [c.name, i] as const))("%s: reported or passed over, and the rest still checked", async (_name, i) => {
    const c = CASES[i]!;
    const dir = join(fixture.dir, `case${i}`);
    const { status, stdout, stderr } = await hooklens(["check", ...(c.args ? c.args(dir) : [dir])]);
    expect(stderr).toBe("");
    expect(stdout).toMatch(/dormant\.ts:2:23 {2}warning/);
    if (c.notice) expect(stdout).toMatch(c.notice);
    else expect(stdout).not.toContain("incomplete");
    // Only the case's own files: the walk stayed inside its folder.
    expect(stdout.match(/ {2}warning {2}/g)).toHaveLength(1);
    expect(status).toBe(1);
  });

  it("--project skips a FIFO the tsconfig takes in", async () => {
    const { status, stdout, stderr } = await hooklens(["check", "--project", "proj"]);
    expect(stderr).toBe("");
    expect(stdout).toMatch(/fifo\.ts:1:1 {2}incomplete {2}Not analysed: not a regular file \(a FIFO\)/);
    expect(stdout).toMatch(/dormant\.ts:2:23 {2}warning/);
    expect(status).toBe(1);
  });

  it("--follow-symlinks walks a linked folder once, however many links reach it", async () => {
    const dir = join(fixture.dir, "linked");
    mkdirSync(join(dir, "real"), { recursive: true });
    fixture.write("linked/real/dormant.ts", DORMANT);
    symlinkSync(join(dir, "real"), join(dir, "alias"));
    symlinkSync(dir, join(dir, "real", "loop"));
    const followed = await hooklens(["check", dir, "--follow-symlinks"]);
    expect(followed.stdout.match(/ {2}warning {2}/g)).toHaveLength(1);
    const outside = join(fixture.dir, "outside");
    fixture.write("outside/dormant.ts", DORMANT);
    symlinkSync(outside, join(dir, "elsewhere"));
    expect((await hooklens(["check", dir])).stdout.match(/ {2}warning {2}/g)).toHaveLength(1);
    expect((await hooklens(["check", dir, "--follow-symlinks"])).stdout.match(/ {2}warning {2}/g)).toHaveLength(2);
  });

  it.each([["0"], ["0.5"], ["lots"], ["5GBs"]])("--max-file-size %s is refused with a clear message", async (size) => {
    const { status, stderr } = await hooklens(["check", ".", "--max-file-size", size]);
    expect(stderr).toContain(`--max-file-size must be a size in bytes, KB or MB (such as 2MB), got "${size}"`);
    expect(status).toBe(2);
  });
});
