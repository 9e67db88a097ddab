/**
 * Words that say how a person is, not what they are: "pregnant", "toxic", "away", "annoying". Before an
 * occupation's word they say how one does it or is ("I'm a lazy cook", "an exhausted nurse"), not a
 * job (occupation.ts). Not a list to tell a name from: "hungry", "tall" and most words are missing.
 */
const howAPersonIs = new Set(
  `sick ill tired bored asleep awake mad sad upset angry busy crazy lazy nice cool sweet kind mean rude
   strict chill weird funny hot cute gone new old young dead alive drunk high sober deaf blind wrong
   right late early away done back broke rich poor smart dumb stupid dope fit ugly silly lonely lovely
   friendly elderly likely chilly curly great good fine bad ok okay awful lame nuts wild hyped stoked
   psyched single married engaged divorced widowed separated retired unemployed pregnant vegan
   vegetarian keto toxic manic hectic chaotic frantic psychotic sarcastic autistic diabetic allergic
   epileptic normal mental brutal cruel loyal royal legal illegal local global patient absent present
   silent decent violent different independent intelligent confident excellent brilliant arrogant
   relevant distant tolerant ignorant amazing awesome terrible horrible happy wonderful fantastic
   perfect gorgeous beautiful handsome home here there out in off on over up down about around abroad
   overseas outside inside upstairs downstairs nearby online offline free unwell better worse best
   worst`.split(/\s+/u),
);

/** Endings of words that describe, long enough that names seldom end so ("annoying", "jealous"). */
const describingEnding = /^\p{L}{3,}(?:ing|ous|ful|ive|ble|less|ish)$|^\p{L}{4,}ed$/u;

export const saysHowAPersonIs = (word: string): boolean => {
  const w = word.toLowerCase();
  return howAPersonIs.has(w) || describingEnding.test(w);
};
