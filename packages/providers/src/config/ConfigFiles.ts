/** Files the providers file names (certificates, keys, secrets): read at load, each failure naming its key. */
import { Effect } from "effect"
import { isAbsolute, resolve } from "node:path"
import { invalidAt } from "./ProvidersFileInvalid.ts"

/** `file` as the process can open it: absolute, or relative to the providers file's folder. */
export const resolvePath = (file: string, baseDir: string) => (isAbsolute(file) ? file : resolve(baseDir, file))

/** Why a file could not be read, in the words an operator acts on. */
const reason = (error: unknown) => {
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  if (code === "ENOENT") return "file not found"
  if (code === "EACCES" || code === "EPERM") return "file not readable (permission denied)"
  if (code === "EISDIR") return "is a folder, not a file"
  return `file not readable (${code ?? String(error)})`
}

/** Reads the file `file` names, or fails with `path: file not found` (or why it could not be read). */
export const readConfigFile = <A>(
  file: string,
  path: ReadonlyArray<PropertyKey>,
  baseDir: string,
  read: (absolute: string) => Promise<A>
) =>
  Effect.tryPromise({
    try: () => read(resolvePath(file, baseDir)),
    catch: (error) => invalidAt(path, reason(error))
  })
