import { Project, SyntaxKind, type ts } from "ts-morph";
import { afterEach, describe, expect, it } from "vitest";
import { PackageNames } from "../../server/src/analyzer/engine/reach/packageNames.js";
import { RuntimeResolver } from "../../server/src/analyzer/packs/hooklens/runtimeResolver.js";
import { createFixture, type Fixture } from "../helpers/fixtureProject.js";

let fixture: Fixture | undefined;
afterEach(() => {
  fixture?.dispose();
  fixture = undefined;
});

const SOURCE = `import { HookBus, HookPoint, Session } from "@hooklens/runtime";
const bus = new HookBus();
const session = new Session();
const point = HookPoint.TOOL_PRE;
bus.on(point, () => undefined);
bus.on(HookPoint.SESSION_END, () => undefined);
session.newBranch();
`;

/** The file's checker, counting how often a node's type is asked of it. */
function openFile() {
  fixture = createFixture();
  const path = fixture.write("hooks.ts", SOURCE);
  const project = new Project({ tsConfigFilePath: fixture.path("tsconfig.json"), skipAddingFilesFromTsConfig: true });
  const file = project.addSourceFileAtPath(path);
  const checker = project.getTypeChecker();
  const compiler = checker.compilerObject;
  const asked: ts.Node[] = [];
  const getTypeAtLocation = compiler.getTypeAtLocation.bind(compiler);
  compiler.getTypeAtLocation = (node) => {
    asked.push(node);
    return getTypeAtLocation(node);
  };
  return { file, runtime: new RuntimeResolver(checker), asked };
}

describe("RuntimeResolver answers each question once per analysis", () => {
  it("isInstanceOf: per node and class, the same answers as the first time, one type query per node", () => {
    const { file, runtime, asked } = openFile();
    const receivers = file.getDescendantsOfKind(SyntaxKind.PropertyAccessExpression).map((access) => access.getExpression());
    const [bus1, bus2, session] = receivers.filter((node) => node.getText() !== "HookPoint");
    const answers = () => [
      runtime.isInstanceOf(bus1!, "HookBus"),
      runtime.isInstanceOf(bus1!, "Session"),
      runtime.isInstanceOf(bus2!, "HookBus"),
      runtime.isInstanceOf(session!, "Session"),
      runtime.isInstanceOf(session!, "HookBus"),
    ];
    expect(answers()).toEqual([true, false, true, true, false]);
    const first = asked.length;
    expect(first).toBeGreaterThanOrEqual(3);
    expect(answers()).toEqual([true, false, true, true, false]);
    expect(answers()).toEqual([true, false, true, true, false]);
    expect(asked.length).toBe(first);
  });

  it("hookPointValue: the same value again, without asking the checker again", () => {
    const { file, runtime, asked } = openFile();
    const calls = file.getDescendantsOfKind(SyntaxKind.CallExpression).filter((call) => call.getExpression().getText() === "bus.on");
    const [viaConstant, direct] = calls.map((call) => call.getArguments()[0]!);
    expect([runtime.hookPointValue(viaConstant!), runtime.hookPointValue(direct!)]).toEqual(["tool.pre", "session.end"]);
    const first = asked.length;
    expect(first).toBeGreaterThanOrEqual(2);
    expect([runtime.hookPointValue(viaConstant!), runtime.hookPointValue(direct!)]).toEqual(["tool.pre", "session.end"]);
    expect(asked.length).toBe(first);
  });
});

describe("RuntimeResolver and package names", () => {
  it("looks up no folder's package.json that the names it is given hold already (a project keeps them between analyses)", () => {
    const { file } = openFile();
    const checker = file.getProject().getTypeChecker();
    let lookups = 0;
    const names = new PackageNames(() => lookups++);
    const ask = () => {
      const runtime = new RuntimeResolver(checker, undefined, names);
      return file.getDescendantsOfKind(SyntaxKind.PropertyAccessExpression).map((access) => [runtime.isInstanceOf(access.getExpression(), "HookBus"), runtime.exportName(access)]);
    };
    const first = ask();
    const afterFirst = lookups;
    expect(afterFirst).toBeGreaterThan(0);
    expect(ask()).toEqual(first);
    expect(lookups).toBe(afterFirst);
  });
});
