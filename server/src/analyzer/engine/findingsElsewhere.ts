import { dirname, relative } from "node:path";
import type { Node } from "ts-morph";
import type { RuleContext } from "./pack.js";

/**
 * The context to check a handler in when the handler may be declared in another module (imported
 * from a sibling): a finding about its parameters, body or returns is reported at `reference`,
 * the handler as the analysed file names it, because offsets in the other module would land on
 * unrelated text here. The explanation says where the handler is; fixes are left out, since their
 * edits belong to the other module. A handler of the analysed file keeps the context as it is.
 */
export function contextForHandler<Facts>(context: RuleContext<Facts>, handler: Node, reference: Node): RuleContext<Facts> {
  const home = handler.getSourceFile();
  if (home === context.sourceFile) return context;
  const path = relative(dirname(context.sourceFile.getFilePath()), home.getFilePath()).replaceAll("\\", "/");
  const { line, column } = home.getLineAndColumnAtPos(handler.getStart());
  const where = `${path.startsWith(".") ? path : `./${path}`}:${line}`;
  const related = { file: home.getFilePath(), line: line - 1, character: column - 1, message: "The handler is declared here" };
  return {
    ...context,
    report: ({ fix: _inTheOtherModule, explanation, ...finding }) =>
      context.report({
        ...finding,
        start: reference.getStart(),
        end: reference.getEnd(),
        related,
        explanation: `The handler is declared in ${where}. ${explanation ?? ""}`.trimEnd(),
      }),
  };
}
