/**
 * `compute` remembered per key, for at most `max` keys: the memo is emptied
 * when full rather than growing without limit (keys such as registrations'
 * secrets or URLs change rarely, so a refill is cheap and rare).
 */
export const boundedMemo = <A>(max: number, compute: (key: string) => A): ((key: string) => A) => {
  const known = new Map<string, A>()
  return (key) => {
    if (known.has(key)) return known.get(key)!
    if (known.size >= max) known.clear()
    const value = compute(key)
    known.set(key, value)
    return value
  }
}
