/**
 * Compares two strings in time that depends only on their lengths, so that a
 * signature or hash check does not leak how many leading characters matched.
 */
export const constantTimeEqual = (a: string, b: string): boolean => {
  // Length is not secret here (hex digests of a fixed size), but the loop
  // still runs over the longer input so a mismatch costs the same either way.
  const length = Math.max(a.length, b.length)
  let diff = a.length ^ b.length
  for (let i = 0; i < length; i++) {
    diff |= (a.charCodeAt(i) | 0) ^ (b.charCodeAt(i) | 0)
  }
  return diff === 0
}
