/**
 * Packages and hook modules for the "member of a package import" questions (reach/runtimeSide.ts):
 * Node's builtins (`@types/node`), ordinary packages, packages that hand the runtime on directly,
 * through a dependency, hoisted (imported without being declared), with no package.json, and
 * files that add to other modules (augmentations, ambient modules, a UMD global).
 */

/** Files under the fixture's node_modules. */
export const PACKAGES: Record<string, string> = {
  "node_modules/plainpkg/package.json": JSON.stringify({ name: "plainpkg", types: "index.d.ts" }),
  "node_modules/plainpkg/index.d.ts": [
    "export declare function on(point: string): void;",
    "export declare const tools: { on(point: string): void; hook(point: string): void };",
    "declare const api: { on(point: string): void; join(...parts: string[]): string };",
    "export default api;",
    'export * as inner from "./inner";',
    'export { on as listen } from "./inner";',
  ].join("\n"),
  "node_modules/plainpkg/inner.d.ts": "export declare function on(point: string): void;\nexport declare function attach(point: string): void;\n",
  // Hands the runtime's `hook` on under other names.
  "node_modules/wrapper/package.json": JSON.stringify({ name: "wrapper", types: "index.d.ts", dependencies: { "@hooklens/runtime": "*" } }),
  "node_modules/wrapper/index.d.ts": [
    'export { hook as on, hook as attach, HookBus as Bus } from "@hooklens/runtime";',
    'import * as runtime from "@hooklens/runtime";',
    "export default runtime;",
    'export * as all from "@hooklens/runtime";',
  ].join("\n"),
  // Through a dependency.
  "node_modules/deeppkg/package.json": JSON.stringify({ name: "deeppkg", types: "index.d.ts", dependencies: { wrapper: "*" } }),
  "node_modules/deeppkg/index.d.ts": 'export * from "wrapper";\nexport { on as listen } from "wrapper";\n',
  // Imports a package it does not declare (hoisted beside it).
  "node_modules/hoisted/package.json": JSON.stringify({ name: "hoisted", types: "index.d.ts" }),
  "node_modules/hoisted/index.d.ts": 'export { attach as subscribe } from "wrapper";\nexport declare function plain(point: string): void;\n',
  // No package.json at all.
  "node_modules/nomanifest/index.d.ts": 'export { hook as on } from "@hooklens/runtime";\n',
  "node_modules/nomanifestplain/index.d.ts": "export declare function on(point: string): void;\n",
  // Adds a runtime alias to another package's module.
  "node_modules/augmenter/package.json": JSON.stringify({ name: "augmenter", types: "index.d.ts" }),
  "node_modules/augmenter/index.d.ts": 'import { hook } from "@hooklens/runtime";\ndeclare module "plainpkg" {\n  export { hook as extra };\n}\nexport {};\n',
};

/** Project modules beside the hook modules. */
export const PROJECT_MODULES: Record<string, string> = {
  // A script that declares an ambient module handing the runtime on.
  "ambient.d.ts": 'declare module "virtualpkg" {\n  export { hook as on } from "@hooklens/runtime";\n}\n',
  // A module that augments Node's path module with a runtime alias.
  "augmentPath.ts": 'import { hook } from "@hooklens/runtime";\ndeclare module "node:path" {\n  export { hook as on };\n}\nexport const marker = 1;\n',
  // A project module off the runtime's side, and one on it.
  "util.ts": "export function on(point: string): void {}\nexport const helpers = { on(point: string): void {} };\n",
  "relay.ts": 'export { hook as on } from "@hooklens/runtime";\n',
};

/** Hook modules: each registers through the runtime and calls members of package imports (HL001 flags `hook("api.pre_call")`). */
export const MAINS: Record<string, string> = {
  builtins: [
    'import { hook } from "@hooklens/runtime";',
    'import assert from "node:assert/strict";',
    'import path from "node:path";',
    'import * as fs from "node:fs";',
    'import { strict } from "node:assert";',
    'import os from "os";',
    'import { fileURLToPath } from "node:url";',
    'fileURLToPath("file:///x");',
    'hook("api.post_call")(() => ({ ok: true }));',
    "assert.equal(1, 1);",
    'assert.deepEqual({ a: 1 }, { a: 1 });',
    'path.join("a", "b");',
    'fs.existsSync("x");',
    "strict.ok(true);",
    "os.tmpdir();",
  ].join("\n"),
  plain: [
    'import { hook } from "@hooklens/runtime";',
    'import api, { tools, inner, listen } from "plainpkg";',
    'import * as pkg from "plainpkg";',
    'import * as local from "./util";',
    'import * as nmp from "nomanifestplain";',
    'hook("api.post_call")(() => ({ ok: true }));',
    'api.on("api.pre_call");',
    'api.join("a");',
    'tools.on("api.pre_call");',
    'tools.hook("api.pre_call");',
    'inner.attach("api.pre_call");',
    'pkg.on("api.pre_call");',
    'pkg.listen("api.pre_call");',
    'local.on("api.pre_call");',
    'nmp.on("api.pre_call");',
    "void listen;",
  ].join("\n"),
  wrapped: [
    'import { hook } from "@hooklens/runtime";',
    'import * as wrapper from "wrapper";',
    'import runtimeDefault, { all } from "wrapper";',
    'import * as deep from "deeppkg";',
    'import * as hoisted from "hoisted";',
    'import * as nm from "nomanifest";',
    'import * as relay from "./relay";',
    'import api from "plainpkg";',
    'hook("api.post_call")((payload: unknown) => payload);',
    'wrapper.on("api.pre_call")((payload: unknown) => payload);',
    'wrapper.attach("api.pre_call")((payload: unknown) => payload);',
    'all.hook("api.pre_call")((payload: unknown) => payload);',
    'runtimeDefault.hook("api.pre_call")((payload: unknown) => payload);',
    'deep.on("api.pre_call")((payload: unknown) => payload);',
    'deep.listen("api.pre_call")((payload: unknown) => payload);',
    'hoisted.subscribe("api.pre_call")((payload: unknown) => payload);',
    'hoisted.plain("api.pre_call");',
    'nm.on("api.pre_call")((payload: unknown) => payload);',
    'relay.on("api.pre_call")((payload: unknown) => payload);',
    // Off the runtime's side although wrappers are imported beside it.
    'api.on("api.pre_call");',
    'import * as local from "./util";',
    'local.helpers.on("api.pre_call");',
    // A name the file narrows is left to the checker (its narrowed type may be a runtime class's).
    'import narrowed from "plainpkg";',
    'import { HookBus } from "@hooklens/runtime";',
    'if (narrowed instanceof HookBus) narrowed.on("api.pre_call", () => undefined);',
  ].join("\n"),
  augmented: [
    'import { hook } from "@hooklens/runtime";',
    'import "augmenter";',
    'import * as pkg from "plainpkg";',
    'import assert from "node:assert/strict";',
    'hook("api.post_call")((payload: unknown) => payload);',
    'pkg.extra("api.pre_call")((payload: unknown) => payload);',
    "assert.equal(1, 1);",
  ].join("\n"),
  ambient: [
    '/// <reference path="./ambient.d.ts" />',
    'import { hook } from "@hooklens/runtime";',
    'import * as virtual from "virtualpkg";',
    'import assert from "node:assert/strict";',
    'hook("api.post_call")((payload: unknown) => payload);',
    'virtual.on("api.pre_call")((payload: unknown) => payload);',
    "assert.equal(1, 1);",
  ].join("\n"),
  pathAugmented: [
    'import { hook } from "@hooklens/runtime";',
    'import "./augmentPath";',
    'import * as path from "node:path";',
    'hook("api.post_call")((payload: unknown) => payload);',
    'path.on("api.pre_call")((payload: unknown) => payload);',
    'path.join("a");',
  ].join("\n"),
};

/**
 * What syntax must settle (`r.w` is no runtime export named otherwise), by hook module: the
 * members of imports off the runtime's side. Everything else in the corpus it must leave to the
 * checker; files on the side that add to other modules leave the whole file to it.
 */
export const SETTLED: Record<string, readonly string[]> = {
  builtins: ["assert", "path", "fs", "strict", "os", "assert.equal", "assert.deepEqual", "path.join", "fs.existsSync", "strict.ok", "os.tmpdir", "fileURLToPath"],
  plain: ["api", "tools", "inner", "pkg", "local", "nmp", "listen", "api.on", "api.join", "tools.on", "tools.hook", "inner.attach", "pkg.on", "pkg.listen", "local.on", "local.helpers", "nmp.on"],
  wrapped: ["api", "local", "narrowed", "api.on", "local.helpers"],
  augmented: [],
  ambient: [],
  pathAugmented: [],
};
