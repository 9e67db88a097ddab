import { foldText } from '../shared/fold-text.ts';

export type LanguageCode = 'pt' | 'es' | 'fr' | 'de' | 'it' | 'hr';

/**
 * A language besides English that a query or a Record may be written in, by its words: the function
 * words that tell the language apart and carry nothing to search for (articles, pronouns,
 * prepositions, auxiliaries, question words), and the words of a question that asks only what
 * happened ("O que aconteceu …?"). Folded, as queries' terms are (fold-text.ts).
 */
export interface Language {
  code: LanguageCode;
  functionWords: ReadonlySet<string>;
  happenedWords: ReadonlySet<string>;
}

const words = (s: string) => new Set(s.split(/\s+/u).filter(Boolean).map(foldText));

// Words English uses as often are left out of the lists they would tip ("was", "an", "in", "am" in
// German; "i" in Italian): an English text must not read as another language. So are they of the
// words that ask what happened ("todo", "los", "fare"), which hold for any query's terms.
export const languages: readonly Language[] = [
  {
    code: 'pt',
    functionWords: words(`o a os as um uma uns umas de do da dos das no na nos nas em ao aos à às pelo pela
      pelos pelas por para com sem sobre entre que se não sim eu tu você vocês ele ela eles elas nós me te
      lhe lhes meu minha meus minhas teu tua seu sua seus suas nosso nossa isso isto aquilo esse essa este
      esta aquele aquela é e ou mas foi fui fomos era eram estava estou está estão sou são tenho tem tinha
      onde quando como qual quais quem porque porquê quanto quanta quantos quantas já também muito mais aqui
      ali lá`),
    happenedWords: words(`aconteceu acontecer acontece passou houve fiz fizemos fez fizeram feito fazer
      algo alguma coisa coisas tudo nada novo nova novidades novidade falamos falámos falei falou disse
      dissemos disseram conversamos`),
  },
  {
    code: 'es',
    functionWords: words(`el la los las lo un una unos unas de del al a en por para con sin sobre entre
      que se no sí yo tú usted ustedes él ella ellos ellas nosotros me te le les mi mis tu tus su sus
      nuestro nuestra eso esto aquello ese esa este esta es y o pero fue fui era estaba estoy está están
      soy son tengo tiene tenía hay hubo dónde donde cuándo cuando cómo como cuál cuáles quién quiénes qué
      cuánto cuánta cuántos ya también muy más aquí allí allá`),
    happenedWords: words(`pasó ocurrió sucedió hice hicimos hizo hicieron hecho hacer algo alguna cosa
      cosas nada nuevo nueva novedades hablamos hablé habló dije dijimos dijo`),
  },
  {
    code: 'fr',
    functionWords: words(`le la les un une des du de à au aux en dans par pour avec sans sur sous entre
      que qu qui quoi ne pas oui non je tu il elle nous vous ils elles on me te se lui leur mon ma
      mes ton ta tes son sa ses notre nos votre vos ce cet cette ces ça cela est et ou mais été était étais
      suis sommes sont ai as avons ont avait où quand comment quel quelle quels quelles pourquoi combien
      déjà aussi très plus ici là`),
    happenedWords: words(`passé arrivé fait faire fais quelque chose choses tout rien nouveau nouvelle
      nouvelles parlé dit`),
  },
  {
    code: 'de',
    functionWords: words(`der die das den dem des ein eine einen einem einer eines und oder aber ich du er
      sie es wir ihr mich mir dich dir ihn ihm uns euch sein seine ihre ihren mein meine meinen dein deine
      nicht kein keine sich ist bin bist sind waren habe hast haben hatte mit für auf zu von bei nach aus im zum
      zur wer wo wann wie warum welche welcher welches woher wohin schon auch sehr mehr hier dort über unter
      durch gegen ohne während wegen seit bis dass ob wenn weil als noch nur immer hat`),
    happenedWords: words(`passiert geschehen gemacht getan machen tun etwas alles nichts neu neues
      neuigkeiten gesprochen geredet gesagt`),
  },
  {
    code: 'it',
    functionWords: words(`il lo la gli le un una uno di del della dello dei delle degli al alla allo ai alle
      a da dal dalla in nel nella nei con su sul sulla per tra fra che chi cosa non sì io tu lui lei noi voi
      loro mi ti ci vi si mio mia miei mie tuo tua suo sua nostro è e o ma sono sei siamo era ero erano ho
      hai ha abbiamo hanno avevo dove quando come quale quali perché quanto quanta quanti già anche molto
      più qui lì là`),
    happenedWords: words(`successo accaduto capitato fatto facevo qualcosa cose tutto niente nulla
      nuovo nuova novità parlato detto`),
  },
  {
    // Croatian: not "i", "a", "to", "on", "do", "me", "im", "ta", English's as often ("Sam" stays: a
    // name, but one English word beside it outweighs it). Each word in the forms a question uses.
    code: 'hr',
    functionWords: words(`u s sa od za iz na po pri kod prema bez o uz kroz se si je su sam smo ste bio bila
      bilo bili biti bi će ću ćeš ćemo ćete li da ne ni ali ili jer ako gdje kako što šta tko koji koja
      koje kojeg zašto koliko ja ti mi vi ona ono oni one moj moja moje mog moju tvoj tvoja njegov njezin
      njen njihov naš naša vaš ga mu joj ih nam vam meni mene tebi tebe njega nju njoj njemu ovo ovaj ova
      ove ovu ovog ovom taj već još samo jako vrlo ovdje tamo ima imam imaš imao imala nema nisam nije
      jesam sve svi nešto ništa neki neka`),
    // Not "radio" ("did"): an English question's radio is a thing to find.
    happenedWords: words(`dogodilo dogodio dogodila desilo napravio napravila nešto išta ništa novo
      novoga novog novosti razgovarali razgovarao razgovarala pričali rekao rekla rekli`),
  },
];

/**
 * English's function words and its commonest others, to leave an English text as it is: "Go get 'em",
 * "See ya", "like a dream come true", "father and son" are none of Portuguese's "em", Spanish's "ya",
 * Italian's "come" or French's "son".
 */
export const englishFunctionWords: ReadonlySet<string> = words(`the a an and or but i you he she we they it
  my your his her our their me him us them is are was were be been have has had do did does what who when
  where which why how of to in on at for with from by about this that these those not no yes will would
  can could should just so if then than there here as like well see get got go going come came make made
  take know think good great new time day way thing things really very much also only even back out up
  down over all some any one two more most other such own same too now ya yeah em son true love let`);

/** A link or an address, whose parts ("de", "im", "io") are no words of a language. */
const isLink = (token: string) =>
  token.includes('://') || token.startsWith('www.') || token.includes('@') || /\.\w+\//u.test(token);

/** A text's words as languageScores reads them: folded, links and addresses left out. */
export function wordsForLanguage(text: string): string[] {
  const kept = text
    .split(/\s+/u)
    .filter((t) => !isLink(t))
    .join(' ');
  return foldText(kept).match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * How many of `folded` (a text's words, folded) are each language's function words, English's apart.
 */
export function languageScores(folded: readonly string[]): {
  english: number;
  scores: Map<LanguageCode, number>;
} {
  // A word with digits in it (an id's, a time's) says no language. French's elided "l'", "d'", "s'" are
  // not listed: English's "'s", "'t", "'d" leave the same letters.
  const scored = folded.filter((w) => !/\d/u.test(w));
  let english = 0;
  for (const w of scored) if (englishFunctionWords.has(w)) english++;
  const scores = new Map<LanguageCode, number>();
  for (const l of languages) {
    let n = 0;
    for (const w of scored) if (l.functionWords.has(w)) n++;
    scores.set(l.code, n);
  }
  return { english, scores };
}

/**
 * The languages other than English the words (folded) are most likely in: those with the most function
 * words, two at least and more than English has. Several where they tie (Portuguese and Spanish share "que", "de",
 * "a"); none for English, or for words that say no language.
 */
export function foreignLanguagesOf(folded: readonly string[]): Language[] {
  const { english, scores } = languageScores(folded);
  const best = Math.max(...scores.values());
  // One word is no language: "plus size", "per diem", "con artist" are English.
  if (best <= english || best < 2) return [];
  return languages.filter((l) => scores.get(l.code) === best);
}
