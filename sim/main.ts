/** Entry point of `npm run simulate`; everything else is in `Cli.ts`. */
import { main } from "./Cli.ts"

process.exitCode = await main(process.argv.slice(2))
