// Mutation testing of the money and billing rules (docs/decisions.md, "Runtime
// and tooling"): `npm run mutate`. Minutes long, so it is run by hand and not in CI.
/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
  testRunner: "vitest",
  vitest: { configFile: "vitest.core.config.ts" },
  mutate: ["packages/core/src/money/**/*.ts", "packages/core/src/rules/**/*.ts", "!**/index.ts"],
  // Stryker reads the tsconfig through the TypeScript JS API, which TypeScript 7
  // does not have: a file that does not exist makes it skip that step. Vitest
  // strips the types itself, and no checker plugin runs (a mutant that does not
  // type-check still has to be killed by a test).
  tsconfigFile: "stryker-reads-no-tsconfig.json",
  checkers: [],
  coverageAnalysis: "perTest",
  // A static mutant reruns every core test file; on a busy machine that can pass the default
  // allowance and count as a kill. Real infinite loops are caught by Stryker's hit counter anyway.
  timeoutMS: 30_000,
  // Two cores, shared with whatever else runs on the machine.
  concurrency: 2,
  // What the core's unit tests never load, kept out of each sandbox copy.
  ignorePatterns: ["/.tools", "/.data", "/test", "/bench", "/examples", "/docs", "/packages/adapters-*", "/packages/worker", "/packages/cli", "dist", "coverage"],
  reporters: ["clear-text", "progress", "html", "json"],
  clearTextReporter: { logTests: false, allowColor: false },
  htmlReporter: { fileName: "reports/mutation/mutation.html" },
  jsonReporter: { fileName: "reports/mutation/mutation.json" },
  tempDirName: ".stryker-tmp"
}
