import type { Deployment } from '../types.ts';

/** A hosted deployment never serves, lists or accepts local_only Records: they stay on their device. */
export function hiddenHere(deployment: Deployment, visibility: string | undefined): boolean {
  return deployment === 'hosted' && visibility === 'local_only';
}

/** since and until are inclusive bounds on world time, compared as instants (offsets differ). */
export function inSpan(at: string, since: string | undefined, until: string | undefined): boolean {
  const t = Date.parse(at);
  return (!since || t >= Date.parse(since)) && (!until || t <= Date.parse(until));
}
