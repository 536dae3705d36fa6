/**
 * Waits until `done` answers true by polling what a process outside the
 * test writes (a worker's rows in the database), not by waiting for time to
 * pass; past `seconds` it fails with `why()`, what was left.
 */
export const pollUntil = async (done: () => Promise<boolean>, seconds: number, why: () => Promise<string>, everyMillis = 50) => {
  const deadline = Date.now() + seconds * 1000
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`not within ${seconds} s: ${await why()}`)
    await new Promise((resolve) => setTimeout(resolve, everyMillis))
  }
}
