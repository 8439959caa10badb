import type { Node } from "ts-morph";

/**
 * The line (from 1) a node's first token is on, counted as ts-morph's `getStartLineNumber` counts
 * it (line feeds before it), for messages that point at another line ("registered on line 12").
 * ts-morph's own lookup reads the file through `getFullText`, which textReads.ts records as a read
 * of the whole text, so one finding that named a line kept every later edit of its file from
 * reusing the findings (neutralEdit.ts). Such an edit never adds or removes a line break, so the
 * number cannot change with it: counting on the compiler's text is no read a reuse must respect.
 */
export function startLineOf(node: Node): number {
  const text = node.getSourceFile().compilerNode.text;
  const start = node.getStart();
  let line = 1;
  for (let at = text.indexOf("\n"); at !== -1 && at < start; at = text.indexOf("\n", at + 1)) line++;
  return line;
}
