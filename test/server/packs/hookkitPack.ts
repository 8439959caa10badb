import { ts } from "ts-morph";
import type { Pack } from "../../../server/src/analyzer/index.js";

/**
 * A pack for a fixture library, "hookkit", written the way a pack for a real SDK is: its module
 * names, one rule in its own code family, facts the rule shares, and a table read from the
 * installed package's declarations (`HOOK_EVENTS`) through the engine's type checker.
 */
interface HookkitFacts {
  /** Names this file imports `on` under from "hookkit" (syntax only: no checker for a file that never calls them). */
  onNames: ReadonlySet<string>;
  /** The events the installed hookkit declares, read once per file when a call needs them. */
  events(): readonly string[] | undefined;
  version(): string | undefined;
}

export const hookkitPack: Pack<HookkitFacts> = {
  id: "hookkit",
  library: { packageName: "hookkit", modules: ["hookkit"] },
  codeFamily: "HL9",
  facts(file) {
    const onNames = new Set<string>();
    for (const statement of file.sourceFile.compilerNode.statements) {
      if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier) || statement.moduleSpecifier.text !== "hookkit") continue;
      const bindings = statement.importClause?.namedBindings;
      if (bindings && ts.isNamedImports(bindings)) for (const element of bindings.elements) if ((element.propertyName ?? element.name).text === "on") onNames.add(element.name.text);
    }
    let events: readonly string[] | undefined | null = null;
    return {
      onNames,
      events: () => (events === null ? (events = file.exportedStrings("hookkit", "HOOK_EVENTS")) : events),
      version: () => file.installedVersion("hookkit"),
    };
  },
  rules: [
    {
      code: "HL901",
      name: "unknown-hookkit-event",
      defaultSeverity: "warning",
      summary: "A handler registered on an event the installed hookkit does not have never runs.",
      check({ sourceFile, facts, report }) {
        const visit = (node: ts.Node): void => {
          if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && facts.onNames.has(node.expression.text)) {
            const event = node.arguments[0];
            const known = facts.events();
            if (event && ts.isStringLiteral(event) && known && !known.includes(event.text)) {
              report({ start: event.getStart(), end: event.getEnd(), message: `hookkit ${facts.version() ?? "?"} has no event "${event.text}"` });
            }
          }
          ts.forEachChild(node, visit);
        };
        visit(sourceFile.compilerNode);
      },
    },
  ],
};
