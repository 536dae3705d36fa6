/**
 * The runtime checks the engine makes before it starts. Every Node 24 we
 * tried reads a one-character object key written as an escape (`"\n"`) as a
 * lone backslash when an object parsed before, with the same keys before
 * it, had the key `"\\"`: one client's body would corrupt another's keys
 * from then on (docs/decisions.md, "Node 26 provisioned from npm").
 */

/**
 * Whether `parse` reads an escaped one-character key right after an object
 * with the same first key had the key `"\\"`. The first key is one nothing
 * else uses, so the probe meets the case whatever was parsed before it.
 */
export const readsEscapedKeys = (parse: (text: string) => unknown = JSON.parse): boolean => {
  parse(`{"billingRuntimeProbe":1,"\\\\":1}`)
  const parsed = parse(`{"billingRuntimeProbe":1,"\\n":1}`)
  return typeof parsed === "object" && parsed !== null && Object.keys(parsed)[1] === "\n"
}

/** Why this runtime cannot run the engine, or undefined when it can. */
export const unsoundRuntime = (parse: (text: string) => unknown = JSON.parse, version = process.version): string | undefined =>
  readsEscapedKeys(parse)
    ? undefined
    : `Node.js ${version} reads escaped JSON keys wrongly (\`{"\\n":1}\` as \`{"\\\\":1}\`), which would corrupt request bodies; run Node 22.19+ or 26 (not 24), e.g. through scripts/node.sh`
