/**
 * The words for a key bound to a Brain its project and env do not hold (yet), said by `mnemo keys
 * create` on stderr and by `POST /v1/keys` in `warnings`. The key is issued all the same: a key bound
 * to a Brain may create it (`mnemo import` does), so one made before its Brain is right; a typo'd name
 * would otherwise give a key that reaches nothing, silently. `where`: the store that was looked in.
 */
export function missingBrainWarning(o: {
  brain: string;
  project: string;
  env: string;
  where?: string;
}): string {
  return (
    `there is no Brain "${o.brain}" in project ${o.project} (${o.env})${o.where ? ` in ${o.where}` : ''} ` +
    'yet; the key is bound to it all the same and reaches no other Brain (it may create this one): ' +
    'check the name if you meant a Brain that exists'
  );
}
