/**
 * Words a chat reacts with, that state nothing on their own: "lol no", "pls dont", "yep 🥹", "not
 * really.", "BIG NEWS.", "wait no, flip that.", "it's fine.". Remembered, each was a Memory in the
 * person's profile beside what she said, and "it's fine." and "it's not fine." two current ones.
 */
const reactionWords = new Set(
  `lol lmao lmfao rofl haha hahaha hehe heh omg omfg wtf ok okay k kk yes yep yeah yup ya yas no nope nah
   not really sure fine cool nice great good bad thanks thank you thx ty np pls plz please dont don't do
   wait stop big news wow oh ah aw aww hmm hm ugh ew yay woo woohoo damn sigh same true right exactly
   agreed indeed maybe idk dunno whatever totally absolutely definitely flip that this it it's its is was
   perfect awesome amazing love so too very lovely sweet fair enough noted got gotcha hey hi hello bye
   cheers congrats omw brb ttyl ikr smh tbh ngl fr haha lolol xd`.split(/\s+/u),
);

/** Whether a sentence is reactions alone (at most four words, each a reaction's), or no word at all. */
export function reactionOnly(sentence: string): boolean {
  const words = sentence.toLowerCase().match(/[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu) ?? [];
  return words.length <= 4 && words.every((w) => reactionWords.has(w.replace('’', "'")));
}
