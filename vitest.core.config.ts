import { defineConfig } from "vitest/config"

// The core's unit tests alone, for the mutation run (stryker.config.mjs): they
// need no database and no secret key, and the end-to-end tests would only slow
// every mutant down without reaching code the core's own tests do not.
export default defineConfig({
  test: {
    include: ["packages/core/test/**/*.test.ts"],
    testTimeout: 30_000
  }
})
