import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["packages/*/test/**/*.test.ts", "test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores on the CI machine: more workers only add contention.
    maxWorkers: 2,
    fileParallelism: true,
    // The secret key of test installations, inherited by the `billing`
    // processes the CLI tests spawn on PostgreSQL (which requires one).
    env: { BILLING_SECRET_KEY: "dGVzdC1vbmx5LXNlY3JldC1rZXktMzItYnl0ZXMhISE=" }
  }
})
