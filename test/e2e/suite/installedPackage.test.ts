import * as assert from "node:assert/strict";
import { sep } from "node:path";
import * as vscode from "vscode";

describe("the extension under test", () => {
  it("is the packaged .vsix installed into the run's profile, not the development folder", () => {
    const extension = vscode.extensions.getExtension("hooklens.hooklens");
    assert.ok(extension, "hooklens.hooklens is installed");
    const extensionsDir = process.env["HOOKLENS_E2E_EXTENSIONS"];
    assert.ok(extensionsDir, "run.mjs names the profile's extensions folder");
    assert.ok(extension.extensionPath.startsWith(extensionsDir + sep), `${extension.extensionPath} lies in ${extensionsDir}`);
    assert.equal(extension.extensionKind, vscode.ExtensionKind.Workspace);
  });
});
