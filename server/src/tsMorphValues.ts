/**
 * ts-morph's values for the server and CLI bundles, imported in this one module: scripts/tsMorphOnce.mjs
 * sends every other `import … from "ts-morph"` of those bundles here. ts-morph is CommonJS, and
 * esbuild gives each module that imports a CommonJS package its own copy of the package's exports
 * (~540 getters for ts-morph), which was ~47 copies at every start of the server. Type-only
 * imports are erased, so only the names below need to be here; a missing one fails the build.
 */
export { Node, Project, SourceFile, SyntaxKind, VariableDeclarationKind, ts } from "ts-morph";
