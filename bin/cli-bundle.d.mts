/** dist/cli's bundle and embedding worker when they are up to date with the checkout, else null. */
export function freshCliBundle(dir?: string): { main: string; embedWorker: string } | null;
