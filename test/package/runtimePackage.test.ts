import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/fixtureProject.js";
import { createTempDir } from "../helpers/tempDir.js";
import { CONSUMERS, EXPECTED_OUTPUT, OTEL_CONSUMERS, OTEL_ENV_EXPECTED_OUTPUT, OTEL_EXPECTED_OUTPUT } from "./consumerPrograms.js";

/**
 * @hooklens/runtime as a stranger gets it: `npm pack` (its prepack builds), the ecosystem's
 * package linters on the tarball, then the tarball installed into a fresh project where an ESM,
 * a CJS and three TypeScript consumers (nodenext, node16, bundler) each run a program through
 * every scope. Type checks do not skip library files, so the shipped declarations are checked too.
 */
const run = promisify(execFile);
const bin = (name: string) => join(REPO_ROOT, "node_modules", ".bin", name);
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const versionOf = (dependency: string) => (JSON.parse(readFileSync(join(REPO_ROOT, "node_modules", dependency, "package.json"), "utf8")) as { version: string }).version;
const nodeTypesVersion = versionOf("@types/node");

let temp: ReturnType<typeof createTempDir>;
let tarball: string;
let packedFiles: string[];
let consumer: string;

beforeAll(async () => {
  temp = createTempDir("hooklens-package-");
  const { stdout } = await run("npm", ["pack", "--json", "--pack-destination", temp.dir], { cwd: join(REPO_ROOT, "runtime"), maxBuffer: 16 * 1024 * 1024 });
  // prepack's build output precedes npm's JSON on stdout.
  const [packed] = JSON.parse(stdout.slice(stdout.indexOf("[\n"))) as [{ filename: string; files: { path: string }[] }];
  tarball = join(temp.dir, packed.filename);
  packedFiles = packed.files.map((f) => f.path).sort();
  consumer = temp.path("consumer");
  mkdirSync(consumer);
  writeFileSync(join(consumer, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
  // The OpenTelemetry API (the optional peer) and SDK at the versions the repository pins.
  const otel = ["@opentelemetry/api", "@opentelemetry/sdk-trace-base"].map((name) => `${name}@${versionOf(name)}`);
  await run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", tarball, `@types/node@${nodeTypesVersion}`, ...otel], { cwd: consumer });
});
afterAll(() => temp?.dispose());

describe("npm pack of @hooklens/runtime", () => {
  it("ships README, LICENSE, ESM and CJS builds with .d.ts and .d.cts types for each entry, and no source maps", () => {
    expect(packedFiles).toEqual(expect.arrayContaining(["README.md", "LICENSE", "package.json"]));
    for (const entry of ["index", "live", "store", "otel", "ai-sdk", "claude-agent-sdk", "openai-agents"]) {
      const types = entry === "index" ? "index" : `${entry}/index`;
      expect(packedFiles).toEqual(expect.arrayContaining([`dist/${entry}.js`, `dist/${entry}.cjs`, `dist/${types}.d.ts`, `dist/${types}.d.cts`]));
    }
    expect(packedFiles.filter((f) => f.endsWith(".map"))).toEqual([]);
    expect(packedFiles.filter((f) => f.startsWith("src/"))).toEqual([]);
  });

  it("passes publint (strict: warnings fail too)", async () => {
    const { stdout } = await run(bin("publint"), ["run", tarball, "--strict"]);
    expect(stdout).toContain("All good!");
  });

  it("passes Are the Types Wrong for node16 (ESM and CJS) and bundlers", async () => {
    // Exits non-zero when any entry resolves wrongly. node10 (no "exports" support) is out of
    // the node16 profile: the subpaths cannot resolve there, and Node.js 20 is the floor.
    const { stdout } = await run(bin("attw"), [tarball, "--profile", "node16", "--format", "ascii"]);
    const verdicts = [...stdout.matchAll(/^(node16 \(from CJS\)|node16 \(from ESM\)|bundler): (.*)$/gm)].map((m) => `${m[1]}: ${m[2]!.trim()}`);
    expect(verdicts).toHaveLength(9 * 3);
    expect(verdicts.filter((v) => !v.includes("🟢"))).toEqual([]);
  });
});

describe("@hooklens/runtime/claude-agent-sdk", () => {
  it("holds no copy of the main entry (it loads it) and loads nothing of the SDK (types only: the SDK is an optional peer)", () => {
    const dist = join(consumer, "node_modules/@hooklens/runtime/dist");
    for (const file of ["claude-agent-sdk.js", "claude-agent-sdk.cjs"]) {
      const text = readFileSync(join(dist, file), "utf8");
      expect(text).not.toMatch(/class SessionObserver\b/);
      expect(text).not.toMatch(/(from |require\()"@anthropic-ai\//);
    }
  });
});

describe("@hooklens/runtime/otel", () => {
  const runNode = async (file: string, env: Record<string, string> = {}) =>
    (await run(process.execPath, [file], { cwd: consumer, env: { ...process.env, ...env } })).stdout.trim();

  it("holds no copy of the main entry (it loads it) and the main entry never imports @opentelemetry/api", () => {
    const dist = join(consumer, "node_modules/@hooklens/runtime/dist");
    for (const file of ["otel.js", "otel.cjs"]) expect(readFileSync(join(dist, file), "utf8")).not.toMatch(/class SessionObserver\b/);
    for (const file of ["index.js", "index.cjs"]) expect(readFileSync(join(dist, file), "utf8")).not.toMatch(/(from |require\()"@opentelemetry\//);
  });

  it("a CommonJS program using only the main entry loads no OpenTelemetry module", async () => {
    writeFileSync(join(consumer, "no-otel.cjs"), OTEL_CONSUMERS["no-otel.cjs"]);
    expect(await runNode("no-otel.cjs")).toBe("0");
  });

  it.each(["otel.mjs", "otel.cjs"] as const)("%s exports a session and a bare IModel into the real SDK", async (file) => {
    writeFileSync(join(consumer, file), OTEL_CONSUMERS[file]);
    expect(await runNode(file)).toBe(OTEL_EXPECTED_OUTPUT);
  });

  it.each(["otel-env.mjs", "otel-env.cjs"] as const)("%s: HOOKLENS_OTEL=1 alone traces a session, a bare IModel and a bare Executor to the global provider", async (file) => {
    writeFileSync(join(consumer, file), OTEL_CONSUMERS[file]);
    expect(await runNode(file, { HOOKLENS_OTEL: "1" })).toBe(OTEL_ENV_EXPECTED_OUTPUT);
    expect(await runNode(file, { HOOKLENS_OTEL: "" })).toBe("");
  });
});

/**
 * One `tsc` in `project` over two programs: one through every scope of the main entry, one using
 * /otel (when `otel` names its file). Both are then run; their stdout lines are returned.
 */
async function compileAndRun(project: string, folder: string, extension: "mts" | "cts" | "ts", compilerOptions: Record<string, unknown>, otel: boolean): Promise<string[]> {
  const dir = join(project, folder);
  mkdirSync(dir, { recursive: true });
  const files = [`main.${extension}`, ...(otel ? [`otel.${extension}`] : [])];
  writeFileSync(join(dir, files[0]!), CONSUMERS.typescript);
  if (otel) writeFileSync(join(dir, files[1]!), OTEL_CONSUMERS.typescript);
  const options = { strict: true, target: "ES2022", skipLibCheck: false, types: ["node"], outDir: "out", ...compilerOptions };
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: options, files }));
  await run(process.execPath, [tsc, "-p", dir]);
  const output = (file: string) => join(dir, "out", file.replace(/\.(m|c)?ts$/, (_, kind: string | undefined) => `.${kind ?? ""}js`));
  return Promise.all(files.map(async (file) => (await run(process.execPath, [output(file)], { cwd: project })).stdout.trim()));
}

describe("a fresh project with the tarball installed", () => {
  const runNode = async (file: string) => (await run(process.execPath, [file], { cwd: consumer })).stdout.trim();

  it("runs an ESM program (import) through every scope", async () => {
    writeFileSync(join(consumer, "esm.mjs"), CONSUMERS["esm.mjs"]);
    expect(await runNode("esm.mjs")).toBe(EXPECTED_OUTPUT);
  });

  it("runs a CommonJS program (require) through every scope", async () => {
    writeFileSync(join(consumer, "cjs.cjs"), CONSUMERS["cjs.cjs"]);
    expect(await runNode("cjs.cjs")).toBe(EXPECTED_OUTPUT);
  });

  it("type-checks and runs TypeScript under module nodenext (ESM, .mts), the main entry and /otel", async () => {
    expect(await compileAndRun(consumer, "nodenext", "mts", { module: "NodeNext", moduleResolution: "NodeNext" }, true)).toEqual([EXPECTED_OUTPUT, "OpenTelemetrySink"]);
  });

  it("type-checks and runs TypeScript under module node16 as CommonJS (.cts, the .d.cts types), the main entry and /otel", async () => {
    expect(await compileAndRun(consumer, "node16", "cts", { module: "Node16", moduleResolution: "Node16" }, true)).toEqual([EXPECTED_OUTPUT, "OpenTelemetrySink"]);
  });
});

/**
 * `@opentelemetry/api` is an optional peer: a project that installs only the tarball (npm leaves
 * optional peers out) must be able to use every scope of the main entry, in JavaScript and in
 * TypeScript with the shipped declarations checked, and `HOOKLENS_OTEL=1` costs it a log line only.
 */
describe("a fresh project with the tarball and no OpenTelemetry package", () => {
  let bare: string;
  beforeAll(async () => {
    bare = temp.path("bare");
    mkdirSync(bare);
    writeFileSync(join(bare, "package.json"), JSON.stringify({ name: "bare", private: true, type: "module" }));
    await run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", tarball, `@types/node@${nodeTypesVersion}`], { cwd: bare });
    for (const file of ["esm.mjs", "cjs.cjs"] as const) writeFileSync(join(bare, file), CONSUMERS[file]);
  });
  const runNode = (file: string, env: Record<string, string> = {}) => run(process.execPath, [file], { cwd: bare, env: { ...process.env, ...env } });

  it("has no @opentelemetry package installed (the premise of the cases below)", () => {
    expect(() => createRequire(join(bare, "package.json")).resolve("@opentelemetry/api")).toThrow(/Cannot find module/);
  });

  it.each(["esm.mjs", "cjs.cjs"] as const)("%s runs through every scope, silently", async (file) => {
    const { stdout, stderr } = await runNode(file);
    expect(stdout.trim()).toBe(EXPECTED_OUTPUT);
    expect(stderr).toBe("");
  });

  it.each(["esm.mjs", "cjs.cjs"] as const)("%s with HOOKLENS_OTEL=1 still runs, and says once why nothing is exported", async (file) => {
    const { stdout, stderr } = await runNode(file, { HOOKLENS_OTEL: "1" });
    expect(stdout.trim()).toBe(EXPECTED_OUTPUT);
    expect(stderr.match(/HOOKLENS_OTEL is set but the OpenTelemetry export could not start \(is @opentelemetry\/api installed\?\)/g)).toHaveLength(1);
  });

  it("importing @hooklens/runtime/otel there fails with the missing package's name", async () => {
    writeFileSync(join(bare, "otel-import.mjs"), `import("@hooklens/runtime/otel").then(() => console.log("loaded"), (error) => console.log(error.code, error.message.split("\\n")[0]));\n`);
    expect((await runNode("otel-import.mjs")).stdout).toMatch(/^ERR_MODULE_NOT_FOUND Cannot find package '@opentelemetry\/api'/);
  });

  it("type-checks (declarations included) and runs TypeScript under moduleResolution bundler", async () => {
    expect(await compileAndRun(bare, "bundler", "ts", { module: "ESNext", moduleResolution: "Bundler" }, false)).toEqual([EXPECTED_OUTPUT]);
  });
});
