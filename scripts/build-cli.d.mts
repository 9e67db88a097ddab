/** Builds the `mnemo` command's bundle to outFile, the embedding worker's beside it. */
export function buildCli(outFile: string): Promise<{ embedWorker: string }>;
/** Builds `mnemo/client` and `mnemo/client/loopback-fetch` to JavaScript in outdir. */
export function buildClient(outdir: string): Promise<void>;
