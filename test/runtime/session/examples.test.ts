import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeDocExamples, examplesIn, runExample } from "../../helpers/docExamples.js";
import { startPostgres, type PostgresServer } from "../../helpers/postgres.js";

const POSTGRES_EXAMPLE = "examples/session/postgresPersistence.ts";

describeDocExamples(
  "docs/runtime/session.md",
  examplesIn("examples/session").filter((path) => path !== POSTGRES_EXAMPLE),
  [POSTGRES_EXAMPLE],
);

describe(POSTGRES_EXAMPLE, () => {
  let server: PostgresServer;
  beforeAll(async () => {
    server = await startPostgres();
  });
  afterAll(() => server?.dispose());

  it("records to a real PostgreSQL server and reads the session back", async () => {
    const { code, stdout, stderr } = await runExample(POSTGRES_EXAMPLE, { TEAM_SIGNALS_URL: await server.createDatabase("team") });
    expect(stderr.includes("AssertionError"), stderr).toBe(false);
    expect(code, stderr).toBe(0);
    expect(stdout).toContain(`{"step":"plan"}`);
  });
});
