import { products } from '../../core/derive/not-a-place.ts';
import { matchesOf } from '../../contract/matches-of.ts';

/**
 * The redactor's rules for where a person lives and what they earn or pay (redact.ts): postal addresses
 * become `[address]`, amounts of money `[amount]`, a date said of a birth `[date]`, and any other number
 * of three digits or more that is no date, time, year, version or measure `[number]`. They run after
 * the rules for e-mail, web and IP addresses, IBANs and long numbers, on what those left, and never read
 * inside a role word another rule wrote (`[person-7KQ2]` holds digits).
 *
 * What stays, on purpose: numbers of one or two digits (a count, an age, a day, a floor said alone),
 * dates and times (when something happened is what most questions ask), years from 1900 to 2099,
 * versions, and quantities with a unit of measure ("42 km", "500 g"); the name of a city or a street
 * without a house number. A date of birth goes, as its year does after "born": with a pseudonym and a
 * city it is what picks one person out (Sweeney's "date of birth, sex and postcode").
 */

/** The role words of every rule: the rules here leave them as they are. */
const roleWord =
  /\[(?:self|person(?:-[0-9A-Z]{4})?|email|url|ip|iban|card|phone|number|address|amount|date|secret)\]/gu;
const hidden = '\uE000';

/**
 * Applies `rule` to `text` with each role word in it read as one private-use character, which no rule
 * matches or takes in, and puts the role words back in their places after it.
 */
export function outsideRoleWords(text: string, rule: (text: string) => string): string {
  const words: string[] = [];
  // The character means nothing in a person's text: one already there would take a role word's place.
  const masked = text.replace(/\uE000/gu, '\uFFFD').replace(roleWord, (w) => {
    words.push(w);
    return hidden;
  });
  if (words.length === 0) return rule(masked);
  let k = 0;
  return rule(masked).replace(/\uE000/gu, () => words[k++]!);
}

// A capitalised word of a name (a street's, a city's): "Vlaška", "São", "O'Connell", "Saint-Denis",
// "Sv." (an abbreviation); 40 letters at most, so no run of letters is read from each of its places.
const nameWord = String.raw`\p{Lu}(?:['’]\p{Lu})?[\p{Ll}\p{M}][\p{L}\p{M}'’]{0,40}(?:-\p{Lu}?[\p{Ll}\p{M}]{1,40})?\.?`;
// Lower-case words inside a street's name: articles and particles ("Rua de São Bento", "Unter den
// Linden", "Trg bana Jelačića", "Ulica kralja Zvonimira").
const particle = String.raw`(?:de|da|do|dos|das|del|della|di|du|la|le|les|van|von|der|den|des|dem|im|am|zum|zur|of|the|y|e|i|bana|kralja|kraljice|kneza|grada|svetog|svete|sv\.|dr\.)`;
const streetName = String.raw`${nameWord}(?:[ \u00a0](?:${particle}[ \u00a0])?${nameWord}){0,4}`;
// A house number: "17", "221B", "4/2", "15-17", "12 a"; never part of a longer number or word, nor a
// time or a decimal ("Python 3.12", "Monday 10:30").
const houseNumber = String.raw`\p{Nd}{1,4}(?:(?:[A-Za-z]|[ ][a-z])(?![\p{L}\p{N}]))?(?:[/-]\p{Nd}{1,4}[A-Za-z]?)?(?![\p{L}\p{N}]|[.,:/-]\p{Nd})`;
const numberMark = String.raw`(?:n\.?[ ]?[ºo°]\.?|nº|no\.|nr\.?|br\.|broj|Nr\.?|No\.|[Nn][úu]mero|[Nn]úm\.|[Nn]um\.|[Nn]ummer)[ ]?`;

// Words of a street's kind written before its name ("Rua Augusta 15", "ul. Ilica 42", "12 rue de la
// Paix"), in the languages the product meets. Not words a sentence uses otherwise ("via", "place",
// "put"): "Via Roma 10" is read as any capitalised name with a number after it.
const streetKindBefore = String.raw`(?:rua|avenida|av\.|avda\.|travessa|praça|praceta|estrada|calçada|alameda|rotunda|calle|c\/|paseo|plaza|carrer|viale|piazza|vicolo|rue|avenue|boulevard|chemin|allée|impasse|quai|ulica|ul\.|trg|cesta|prilaz|obala|aleja|avenija|šetalište|odvojak)`;
// Words of a street's kind written after its name ("221B Baker Street", "Vlaška ulica 17").
const streetKindAfter = String.raw`(?:Street|St\.?|Road|Rd\.?|Avenue|Ave\.?|Lane|Ln\.?|Drive|Dr\.?|Boulevard|Blvd\.?|Way|Place|Pl\.?|Square|Sq\.?|Court|Ct\.?|Terrace|Close|Crescent|Grove|Gardens|Row|Mews|Parade|Highway|Hwy\.?|Parkway|Pkwy\.?|ulica|cesta|trg|put|Straße|Strasse|Str\.|Gasse|Weg|Platz|Allee)`;

/**
 * Words that name something numbered other than a house ("Chapter 5", "Windows 11", "Gate 12"): a
 * capitalised word and a number after it is an address unless its word is one of these, or a month or a
 * weekday ("May 5", "Monday 3").
 */
const numberedThings = new Set(
  `chapter chapters page pages part parts section sections article articles item items figure fig table step
   steps stage phase round level levels season episode episodes series volume vol issue ticket task bug
   version release build model type class grade group team room gate platform terminal track seat row
   flight bus tram train line route exit lot size top number no nr psalm verse week day days year years
   sprint quarter q week apollo boeing airbus formula expo euro covid windows office iphone android ios
   macos python java node php perl ruby ubuntu fedora debian rhel sles centos mint xbox playstation ps
   galaxy pixel note mark matthew john luke acts genesis exodus king kings revelation windows10 game games
   movie film book books act acts scene unit units pack player players slot slots tier zone zones ward
   bay dock pier hall hangar studio stage block`.split(/\s+/u),
);
/** Words that open a sentence before a number ("On 15 May", "In 2024", "At 3"): no street's name. */
const functionWords = new Set(
  `on in at by for from to since until till after before about around the a an my our your his her their
   this that than and or of over under between during each every only just about approx ca nearly
   almost some all page see also we i you he she they it am pm`.split(/\s+/u),
);
const months =
  /^(?:jan(?:uary|uar)?|feb(?:ruary|ruar)?|mar(?:ch)?|märz|apr(?:il)?|may|mai|jun(?:e|i)?|jul(?:y|i)?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|okt(?:ober)?|nov(?:ember)?|dec(?:ember)?|dez(?:ember)?|siječnja|siječanj|veljače|veljača|ožujka|ožujak|travnja|travanj|svibnja|svibanj|lipnja|lipanj|srpnja|srpanj|kolovoza|kolovoz|rujna|rujan|listopada|listopad|studenoga|studenog|studeni|prosinca|prosinac|janeiro|fevereiro|março|abril|maio|junho|julho|agosto|setembro|outubro|novembro|dezembro|enero|febrero|marzo|mayo|junio|julio|septiembre|octubre|noviembre|diciembre|janvier|février|mars|avril|juin|juillet|août|septembre|octobre|novembre|décembre)\.?$/iu;
const weekdays =
  /^(?:mon(?:day)?|tue(?:s(?:day)?)?|wed(?:nesday)?|thu(?:rs(?:day)?)?|fri(?:day)?|sat(?:urday)?|sun(?:day)?|montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag|ponedjeljak|utorak|srijeda|četvrtak|petak|subota|nedjelja|segunda|terça|quarta|quinta|sexta|sábado|domingo|lunes|martes|miércoles|jueves|viernes|lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche)\.?$/iu;
export const isCalendarWord = (word: string): boolean => months.test(word) || weekdays.test(word);

const letters = String.raw`[\p{L}\p{M}]`;
const streetThenNumber = new RegExp(
  String.raw`(?<!${letters})(${streetName}),?[ \u00a0](?:${numberMark})?(${houseNumber})`,
  'gu',
);
// With the kind of street said, its name may be in any case ("rua augusta 15"): the `i` flag reads the
// name's capital as any letter.
const kindBeforeStreet = new RegExp(
  String.raw`(?<!${letters})${streetKindBefore}[ \u00a0](?:${particle}[ \u00a0]){0,2}${streetName},?[ \u00a0](?:${numberMark})?${houseNumber}`,
  'giu',
);
const numberThenKind = new RegExp(
  String.raw`(?<![\p{L}\p{N}])\p{Nd}{1,5}[A-Za-z]?,?[ \u00a0]${streetKindBefore}[ \u00a0](?:${particle}[ \u00a0]){0,2}${streetName}(?!${letters})`,
  'giu',
);
const numberThenStreet = new RegExp(
  String.raw`(?<![\p{L}\p{N}])\p{Nd}{1,5}[A-Za-z]?,?[ \u00a0]${streetName}[ \u00a0]${streetKindAfter}(?!${letters})`,
  'gu',
);
const streetKindThenNumber = new RegExp(
  String.raw`(?<!${letters})${streetName}[ \u00a0]${streetKindAfter},?[ \u00a0](?:${numberMark})?${houseNumber}`,
  'gu',
);
// After words that say an address follows, the street may be written in lower case ("I now live at
// vlaška 17", "adresa: ilica 42").
const addressCue = String.raw`(?:live[sd]? (?:at|on|in)|living (?:at|on|in)|moved (?:to|into)|moving (?:to|into)|address(?: is|:)|adresa(?: je|:)?|morada(?: é|:)?|adresse(?: ist|:)?|dirección(?: es|:)?|živim (?:u|na)|stanujem (?:u|na)|moro (?:na|em|no)|wohne (?:in der|in|an der|am)|wohnt (?:in der|in|an der|am))`;
// A number's mark alone before the number ("I live at No. 42 Ilica") is no street's name: the number
// and the name after it are read as below.
const cuedAddress = new RegExp(
  String.raw`(?<!${letters})(${addressCue}[ \u00a0])(?!${numberMark}\p{Nd})((?:${letters}{2,40}\.?[ \u00a0]){1,4}(?:${numberMark})?${houseNumber})`,
  'giu',
);
// After those words, a house number first (a number's mark may stand before it) and a street's name
// with no word of its kind ("I live at 42 Ilica", "I live at No. 42 Ilica", "moved to 7 Savska"). Found
// case-insensitively, as the cue may open a sentence; the street's name is then read again as written
// (`streetAt`): capitalised, or after a cue that says a home's place ("live at", "address:"), in lower
// case too ("I live at 42 ilica").
const cuedNumberFirst = new RegExp(
  String.raw`(?<!${letters})(${addressCue}[ \u00a0])((?:${numberMark}|#[ ]?)?\p{Nd}{1,4}[A-Za-z]?(?:[/-]\p{Nd}{1,4}[A-Za-z]?)?,?[ \u00a0])(?=${letters})`,
  'giu',
);
// A second address joined to the first ("I lived at 3 ilica and 5 savska"): the same shape after "and",
// "or", "&", "then", "i", "e", "und".
const nextNumberFirst = new RegExp(
  String.raw`(,?[ \u00a0](?:(?:and|or|&|i|e|und)[ \u00a0](?:then[ \u00a0])?|then[ \u00a0])(?:(?:at|on|to|in)[ \u00a0])?)((?:${numberMark}|#[ ]?)?\p{Nd}{1,4}[A-Za-z]?(?:[/-]\p{Nd}{1,4}[A-Za-z]?)?,?[ \u00a0])(?=${letters})`,
  'iuy',
);
const streetAt = new RegExp(String.raw`${streetName}(?!${letters}|[-'’])`, 'uy');
const lowerStreetAt = new RegExp(String.raw`\p{Ll}[\p{Ll}\p{M}]{2,40}(?!${letters}|[-'’])`, 'uy');
const homeCue =
  /^(?:live[sd]? (?:at|on)|living (?:at|on)|mov(?:ed|ing) (?:to|into)|address(?: is|:)|adresa|morada|adresse|dirección|živim|stanujem|moro|wohn)/iu;
// Words after "live at 3" or "moved to 3" that say how many, not where ("I live at 2 different
// places", "we moved to 3 bigger flats"). Not "new", "old" or "more": "12 new road" is a street.
const notAStreet = new Set(
  `different other separate places locations addresses homes houses flats apartments times the a an
   of in on at and or fewer bigger smaller larger several kids children people persons cats
   dogs teams jobs rooms offices`.split(/\s+/u),
);

/**
 * "I live at 42 Ilica": the cue, the number and the capitalised name after it as `[address]`, unless
 * the name is a month or a weekday ("moved to 3 May"), a thing numbered or a product.
 */
function replaceCuedNumberFirst(text: string): string {
  let out = '';
  let from = 0;
  for (const m of matchesOf(cuedNumberFirst, text)) {
    if (m.index < from) continue;
    const home = homeCue.test(m[1]!);
    let end = streetEnd(text, m.index + m[0].length, home);
    if (end === null) continue;
    out += `${text.slice(from, m.index)}${m[1]}[address]`;
    from = end;
    // Another address joined to it, of the same shape.
    for (;;) {
      nextNumberFirst.lastIndex = from;
      const next = nextNumberFirst.exec(text);
      end = next === null ? null : streetEnd(text, from + next[0].length, home);
      if (next === null || end === null) break;
      out += `${next[1]}[address]`;
      from = end;
    }
  }
  return out + text.slice(from);
}

/**
 * Where the street's name after a house number at `nameAt` ends, or null when what follows is no
 * street: a month or a weekday ("moved to 3 May"), a thing numbered, a product, a unit or a count ("I
 * live at 10 minutes from work", "3 times"). A name in lower case only after a cue of a home.
 */
function streetEnd(text: string, nameAt: number, home: boolean): number | null {
  streetAt.lastIndex = nameAt;
  // A full stop after the name is the sentence's ("I live at 42 Ilica."), an abbreviation's ("Sv.")
  // no more than a letter or two to the hub.
  let name = streetAt.exec(text)?.[0].replace(/\.$/u, '');
  if (!name && home) {
    lowerStreetAt.lastIndex = nameAt;
    name = lowerStreetAt.exec(text)?.[0];
    if (name && notAStreet.has(name)) name = undefined;
    // "3 new flats", "2 new teams": a count; "12 new road" is a street.
    if (name && /^(?:new|old|more)$/u.test(name) && pluralAfter.test(text.slice(nameAt + name.length)))
      name = undefined;
  }
  if (!name || numberedThing(name, '') || unitAfter.test(` ${name}`)) return null;
  return counted(text, nameAt + name.length) ? null : nameAt + name.length;
}
const pluralAfter = /^[ \u00a0]+\p{Ll}{2,}s(?![\p{L}\p{N}])/u;
// A count after the number ("lived in Zagreb 5 years", "Ilica 3 times") makes it no house's.
const counted = (whole: string, end: number) => unitAfter.test(whole.slice(end, end + 16));

// A floor, a flat, an apartment or a unit in a building: "3rd floor", "floor 3", "flat 4B", "Apt. 5",
// "3. kat", "2.º esq.", "3. Stock", "Wohnung 4". A floor's word that has another meaning ("stock",
// "piano") only after an ordinal's dot or sign.
const unit = new RegExp(
  String.raw`(?<![\p{L}\p{N}])(?:\p{Nd}{1,3}(?:st|nd|rd|th)?[ \u00a0]?(?:floor|fl\.|storey)(?!${letters})|\p{Nd}{1,2}(?:\.|º|ª|e|ème|er)[ \u00a0]?(?:kat|katu|andar|piso|Stock|OG|étage|etage|piano)(?!${letters})|(?:floor|flat|apartment|apt\.?|unit|suite|ste\.|stan|andar|piso|Wohnung|Whg\.|appartement|apartamento|apto\.?|dpto\.?|kat)[ \u00a0]?(?:no\.[ ]?|nr\.[ ]?|br\.[ ]?|#[ ]?)?\p{Nd}{1,4}[A-Za-z]?(?![\p{L}\p{N}])|\p{Nd}{1,2}\.?[ºª][ ]?(?:andar|esq\.?|esquerdo|dto\.?|direito|dir\.?|frente|[A-F](?![\p{L}])))`,
  'giu',
);
// Postcodes with the name of the place after them ("10000 Zagreb", "1100-148 Lisboa", "1012 AB
// Amsterdam"), a British one ("SW1A 1AA"), an American ZIP after its state ("NY 10001"), a post box.
const postcode = new RegExp(
  String.raw`(?<![\p{L}\p{N}])(?:\p{Nd}{5}|\p{Nd}{4}-\p{Nd}{3}|\p{Nd}{4}[ ]?[A-Z]{2}|[1-9]\p{Nd}{3}(?<!(?:19|20)\p{Nd}\p{Nd}))(?=[ \u00a0]\p{Lu}\p{Ll})|(?<![\p{L}\p{N}])[A-Z]{1,2}\p{Nd}[A-Z\p{Nd}]?[ ]?\p{Nd}[A-Z]{2}(?![\p{L}\p{N}])|(?<![\p{L}\p{N}])[A-Z]{2}[ ]\p{Nd}{5}(?:-\p{Nd}{4})?(?![\p{L}\p{N}])|(?<![\p{L}])(?:P\.?[ ]?O\.?[ ]?Box|Postfach|Apartado|Caixa Postal|poštanski pretinac)[ ]?\p{Nd}{1,6}`,
  'gu',
);

/** Portuguese postcodes ("1100-148 Lisboa"), whose seven digits the digit rules would take for a phone. */
export function replacePostcodesWithDash(text: string): string {
  return text.replace(/(?<![\p{L}\p{N}+-])\p{Nd}{4}-\p{Nd}{3}(?=[ \u00a0]\p{Lu}\p{Ll})/gu, '[address]');
}

/** A postal address's parts as `[address]`: a street and its number, a floor or flat, a postcode. */
export function replaceAddresses(text: string): string {
  let out = text.replace(cuedAddress, (found: string, cue: string, _a: string, at: number, whole: string) =>
    counted(whole, at + found.length) ? found : `${cue}[address]`,
  );
  out = out.replace(numberThenKind, '[address]');
  out = out.replace(numberThenStreet, '[address]');
  out = replaceCuedNumberFirst(out);
  out = out.replace(kindBeforeStreet, '[address]');
  out = out.replace(streetKindThenNumber, '[address]');
  out = out.replace(
    streetThenNumber,
    (found: string, street: string, num: string, at: number, whole: string) =>
      numberedThing(street, num) || counted(whole, at + found.length) ? found : '[address]',
  );
  out = out.replace(unit, '[address]');
  return out.replace(postcode, '[address]');
}

/** Parts of one address side by side ("[address], [address]": a street, a floor, a postcode) as one. */
export const joinAddresses = (text: string): string =>
  text.replace(/\[address\](?:[ \u00a0]?[,;]?[ \u00a0]?\[address\])+/gu, '[address]');

/**
 * Whether a capitalised word and the number after it name something numbered that is no house: a word
 * of `numberedThings`, a month or weekday ("May 5"), or a year after a word ("Christmas 2024").
 */
function numberedThing(street: string, num: string): boolean {
  const words = street.split(/[ \u00a0]+/u).map((w) => w.replace(/\.$/u, '').toLowerCase());
  if (words.some((w) => numberedThings.has(w) || products.has(w) || isCalendarWord(w))) return true;
  if (words.every((w) => functionWords.has(w))) return true;
  return /^(?:19|20)\p{Nd}{2}$/u.test(num);
}

const currencySymbol = String.raw`(?:R\$|US\$|A\$|C\$|NZ\$|HK\$|[$€£¥₹₽₺₩₪₴₱₫฿₦₡₲₵₸₼₾])`;
const currencyCode = String.raw`(?:EUR|USD|GBP|CHF|HRK|BRL|JPY|CNY|RMB|PLN|CZK|SEK|NOK|DKK|HUF|RON|BGN|RSD|BAM|MKD|TRY|RUB|UAH|INR|AUD|CAD|NZD|SGD|HKD|ZAR|MXN|ARS|CLP|COP|ILS|AED|SAR|KRW|THB|IDR|MYR|PHP|VND|EGP|NGN|KES|MAD|ISK|BTC|ETH)`;
const currencyWord = String.raw`(?:euros?|eura|eur|dollars?|bucks|pounds?|quid|kn|kuna|kune|reais|francs?|franken|yen|yuan|rupees?|rubles?|roubles?|złoty|zloty|zł|kč|lei|dinara?|cents?|pence|cêntimos|centavos|centi)`;
// An amount as people write it: grouped in thousands by a dot, a comma, an apostrophe or a space of any
// width ("3,200", "3.200", "1'200", "1 200"), a decimal part of one or two digits, and "-" for no cents
// ("100,-").
// Bounded, so that a long run of digits and spaces is not read again from each of its groups.
const amountNumber = String.raw`(?:\p{Nd}{1,3}(?:[.,'’ \u00a0\u202f]\p{Nd}{3}){1,6}|\p{Nd}{1,18})(?:[.,]\p{Nd}{1,2})?(?:[.,]-{1,2})?`;
const scale = String.raw`(?:[ ]?(?:k|K|m|M|mn|bn|million|millions|billion|thousand|grand|mil|milhões|milijuna|milijun|tisuća|Tausend|Mio\.?|Mrd\.?)(?!${letters}))?`;
const amount = new RegExp(
  String.raw`(?<![\p{L}\p{N}])(?:(?:${currencySymbol}|${currencyCode})[ \u00a0]?-?${amountNumber}${scale}|${amountNumber}${scale}[ \u00a0]?(?:${currencySymbol}|(?:${currencyCode}|${currencyWord})(?!${letters})))`,
  'gu',
);
// Words of money a number after which is an amount though no currency is written ("my salary is 32k",
// "rent of 850", "plaća je 3200").
const moneyWord = String.raw`(?:salary|salaries|wage|wages|pay|paid|pays|paying|earn|earns|earned|earning|income|rent|rents|cost|costs|costed|price|prices|priced|fee|fees|owe|owes|owed|debt|loan|mortgage|budget|bonus|savings|saved|spent|spend|spends|bill|charged|invoice|plaća|plaću|plaće|najam|najamnina|stanarina|kirija|dug|kredit|salário|renda|aluguel|aluguer|preço|dívida|empréstimo|Gehalt|Lohn|Miete|Preis|Schulden|Kredit)`;
const moneyNumber = new RegExp(
  String.raw`(?<!${letters})(${moneyWord}(?:[ \u00a0]${letters}{1,12}){0,3}[ \u00a0])(${amountNumber}${scale})(?![\p{L}\p{N}]|[.,:/]\p{Nd})`,
  'giu',
);

/** Amounts of money (with a currency, or after a word of money) as `[amount]`. */
export function replaceAmounts(text: string): string {
  return text
    .replace(amount, '[amount]')
    .replace(moneyNumber, (found: string, before: string, num: string) =>
      isYearAlone(num) ? found : `${before}[amount]`,
    );
}
const isYearAlone = (num: string) => /^(?:19|20)\p{Nd}{2}$/u.test(num);

// Words that say a birth, and a date after them: numeric, with a month's name, or a year. A birthday's
// words ("birthday", "rođendan", "aniversário", "Geburtstag") are followed by a date with its year only:
// a year alone after them is a party's more often than a birth's, but right after "Birthday:" it is
// what a form or a profile says of a birth.
const bornCue = String.raw`(?:born|birth ?date|date of birth|d\.?o\.?b\.?|rođen|rođena|rođenja|rodila|rodio|rodili|rodile|datum rođenja|nasci|nascid[oa]|nascimento|data de nascimento|geboren|Geburtsdatum|nacid[oa]|fecha de nacimiento|née?|date de naissance)`;
const birthdayCue = String.raw`(?:birthday|rođendan|rođendana|rođendanu|aniversário|Geburtstag|cumpleaños)`;
const monthName = String.raw`${letters}{3,10}\.?`;
/** A month's name, as `months` reads one, inside a longer pattern. */
const realMonth = months.source.slice(1, -1);
// A word that opens another clause ("born in Zagreb, moved in 2015", "born and raised here, in 2015"):
// a date after it is not the birth's.
const otherClause = String.raw`(?:and|but|then|since|until|after|before|moved|lived|left|went|came|married|started|graduated|raised|grew|worked|studied|met|returned|relocated|ali|pa|zatim|mas|und|aber|dann|seit)`;
// Up to four words between the words of a birth and its date ("is", "mi je", "in Zagreb on"), never
// across the end of a sentence: a comma or a colon may stand between them, a full stop may not.
const birthSep = String.raw`[,:]?[ \u00a0]`;
const birthGap = String.raw`(?:${birthSep}(?!${otherClause}(?!${letters}))[\p{L}\p{M}'’]{1,24}){0,4}?(?:${birthSep}|:)?`;
// A day, a month and a year in numbers; a day (an ordinal too: "3rd", "the 3rd of"), a month's name and
// a year; a month's name, a day and a year; "03-May-1990"; a month's name and a year ("May 1990").
const day = String.raw`\p{Nd}{1,2}(?:st|nd|rd|th|\.)?`;
const fullDate = String.raw`(?:\p{Nd}{1,4}[-./ ]{1,2}\p{Nd}{1,2}[-./ ]{1,2}\p{Nd}{2,4})|(?:${day}(?:[ \u00a0](?:of|de))?[ \u00a0]${monthName}(?:[ \u00a0](?:de))?,?[ \u00a0]\p{Nd}{4})|(?:${monthName}[ \u00a0]\p{Nd}{1,2}(?:st|nd|rd|th)?,?[ \u00a0]\p{Nd}{4})|(?:\p{Nd}{1,2}-${monthName}-\p{Nd}{4})|(?:${realMonth},?[ \u00a0]\p{Nd}{4})`;
const dateAfterBirth = new RegExp(
  String.raw`(?<!${letters})(${bornCue}${birthGap})(${fullDate}|(?:19|20)\p{Nd}{2})(?![\p{L}\p{N}])|(?<!${letters})(${birthdayCue}${birthGap})(${fullDate})(?![\p{L}\p{N}])|(?<!${letters})(${birthdayCue}[ \u00a0]?:[ \u00a0]*)((?:19|20)\p{Nd}{2})(?![\p{L}\p{N}]|[./-]\p{Nd})`,
  'giu',
);
// "b. 1990-05-03", "(b. 1856)", "geb. 03.05.1990", "rođ. 1990": an abbreviation, in lower case, right
// before its date.
const dateAfterAbbreviation = new RegExp(
  String.raw`(?<![\p{L}\p{N}])((?:b|geb|rođ|nasc)\.[ \u00a0]?)(${fullDate}|(?:19|20)\p{Nd}{2})(?![\p{L}\p{N}])`,
  'gu',
);
const hasYear = (date: string) => /\p{Nd}{4}|\p{Nd}{1,2}[-./]\p{Nd}{1,2}[-./]\p{Nd}{2}/u.test(date);

/**
 * A date or year said of a birth ("born 1990-05-01", "date of birth: 1 May 1990", "my birthday is May
 * 3, 1990", "I was born in Zagreb on 3 May 1990", "rođendan mi je 3.5.1990.", "Birthday: 1990", "b.
 * 1990") as `[date]`.
 */
export function replaceBirthDates(text: string): string {
  const out = text.replace(dateAfterBirth, (found: string, ...groups: (string | undefined)[]) => {
    const k = groups.findIndex((g, i) => i < 6 && i % 2 === 0 && g !== undefined);
    const [cue, date] = [groups[k]!, groups[k + 1]!];
    return hasYear(date) ? `${cue}[date]` : found;
  });
  return out.replace(dateAfterAbbreviation, (found: string, cue: string, date: string) =>
    hasYear(date) ? `${cue}[date]` : found,
  );
}

// A predicate that says a birth ("date of birth", "DOB", "birthday", "born", "rođendan", "datum
// rođenja", "Geburtsdatum"): its value is a date of birth whatever its form. "born in" may name a place
// ("Split"), which has no digit and no month.
const birthPredicate = new RegExp(
  String.raw`(?<!${letters})(?:${bornCue}|${birthdayCue}|birthdays|birth|dob)(?!${letters})`,
  'iu',
);
// A word of a date in such a predicate: with it, the predicate says a date of birth whatever else it
// says ("date and place of birth", "birth date (certificate)", "father's dob").
const dateWord = new RegExp(
  String.raw`(?<!${letters})(?:date|dates|datum|data|fecha|dob|d\.o\.b\.?|Geburtsdatum)(?!${letters})`,
  'iu',
);
// What such a predicate may say of a birth that is no date, as the noun the birth's word is said of:
// right after it ("birth weight", "birth order", "birthday party", "birthday gift") or before it with
// "of" ("place of birth", "mjesto rođenja", "local de nascimento"). Anyone's birth is still one:
// "mother's birthday", "name day and birthday" say a date.
const headNoun = String.raw`(?:weight|order|place|country|city|town|village|hospital|name|surname|sign|stone|flower|length|height|size|rate|control|party|parties|gift|gifts|present|presents|wish|wishes|cake|card|mjesto|težina|grad|država|ime|zabava|poklon|torta|peso|lugar|local|país|cidade|festa|presente|bolo|Gewicht|Ort|Name|Feier|Geschenk|Kuchen)`;
const birthWords = new RegExp(
  String.raw`(?<!${letters})(${headNoun}[ \u00a0]+(?:(?:of|de|do|da|der|des)[ \u00a0]+)?)?(?:${bornCue}|${birthdayCue}|birthdays|birth|dob)(?!${letters})([ \u00a0]+${headNoun}(?!${letters}))?`,
  'giu',
);
export const isBirthPredicate = (predicate: string): boolean => {
  if (!birthPredicate.test(predicate)) return false;
  if (dateWord.test(predicate)) return true;
  for (const m of matchesOf(birthWords, predicate)) if (m[1] === undefined && m[2] === undefined) return true;
  return false;
};

/**
 * Whether a fact's predicate speaks of a birth at all ("birthday card", "place of birth"): with a full
 * date of a year long past (`oldFullDate`) its value is a date of birth whatever noun the birth's word
 * is said of.
 */
export const mentionsBirth = (predicate: string): boolean => birthPredicate.test(predicate);

/**
 * Whether a value holds a day, a month and a year at least five years before `nowYear` ("3 May 1990",
 * "03.05.1990", "1990-05-03"): beside a birth's word, a date of birth; a birthday party's is this year's.
 */
export const oldFullDate = (value: string, nowYear: number): boolean => {
  const year = /(?<!\p{Nd})(1[89]\p{Nd}{2}|20\p{Nd}{2})(?!\p{Nd})/u.exec(value);
  if (!year || Number(year[1]) > nowYear - 5) return false;
  const dayMonth =
    /\p{Nd}{1,2}[./-]\p{Nd}{1,2}|\p{Nd}{4}-\p{Nd}{2}-\p{Nd}{2}/u.test(value) ||
    (/(?<!\p{Nd})\p{Nd}{1,2}(?:st|nd|rd|th|\.)?(?!\p{Nd})/u.test(value.replace(year[1]!, ' ')) &&
      value.split(/[^\p{L}\p{M}.]+/u).some((w) => w !== '' && months.test(w)));
  return dayMonth;
};

/**
 * Whether a fact's value, of a birth predicate, holds a date: a year ("1990"), a day and a month in
 * numbers ("3.5.", "03/05/90"), an ordinal day ("3rd"), or a month's name ("in May"). A number alone of
 * one to three digits is none: `dob: 34` is an age (Croatian "dob").
 */
export const holdsDate = (value: string): boolean =>
  /\p{Nd}{4}|\p{Nd}{1,2}[./-]\p{Nd}{1,2}|\p{Nd}{1,2}(?:st|nd|rd|th)(?![\p{L}])/u.test(value) ||
  value.split(/[^\p{L}\p{M}.]+/u).some((w) => w !== '' && months.test(w));

// A number as the rest of the text holds it: digits, with dots, commas, colons, slashes, dashes or
// apostrophes between groups; not the digits of a word ("A320" is read as a word, below).
// An ISO timestamp ("2024-05-01T12:30:45.123Z") is read whole first, and kept: its time's digits are
// written onto its "T".
const numberToken =
  /(?<![\p{L}\p{N}_\uE000])(?:\p{Nd}{4}-\p{Nd}{2}-\p{Nd}{2}T\p{Nd}{1,2}:\p{Nd}{2}(?::\p{Nd}{2}(?:[.,]\p{Nd}{1,9})?)?(?:Z|[+-]\p{Nd}{2}:?\p{Nd}{2})?(?![\p{L}\p{N}])|\p{Nd}+(?:(?:[.,:'’/-]|[ ]?[–-][ ]?)\p{Nd}+)*)/gu;
// Letters and digits in one word, with three digits in a row or five in all ("OU370", "A1234B5678").
// Letters and digits in one word, with three digits in a row or five in all ("OU370", "A1234B5678").
const mixedWord =
  /(?<![\p{L}\p{N}_\uE000])(?=[\p{L}\p{N}]*\p{L})(?=[\p{L}\p{N}]*\p{Nd}{3}|(?:\p{L}*\p{Nd}){5})[\p{L}\p{N}]{4,64}(?![\p{L}\p{N}])/gu;
const versionWordBefore =
  /(?:\b(?:versions?|ver|v|release|build|revision|rev|patch|kernel|linux-image)\.?:?[ ]{0,3}|(?:\uE000\]?|\]):)$/iu;
const unitAfter =
  /^[ \u00a0]?(?:%|‰|°|º|km\/h|km²|m²|m2|km|cm|mm|kg|kcal|kwh|kw|mah|mph|rpm|ml|dl|mg|mcg|µg|hz|khz|mhz|ghz|kb|mb|gb|tb|kbps|mbps|gbps|fps|px|dpi|lbs?|oz|ft|mi|miles?|metres?|meters?|kilometres?|kilometers?|kilos?|grams?|litres?|liters?|calories|steps|words|pages|minutes?|mins?|hours?|hrs?|seconds?|secs?|days?|weeks?|months?|years?|m|g|l|h|s|w|v)(?![\p{L}\p{N}])/iu;
const ordinalAfter = /^(?:st|nd|rd|th|s)(?![\p{L}\p{N}])/u;
// A number after these is a secret whatever its shape ("PIN 2019"); a "code" of rules, of an error or
// of a place is none ("the building code 2021").
const secretBefore =
  /(?:\b(?:pin|(?<!(?:building|error|status|source|tax|penal|civil|dress|postal|zip|area|country)[ -])code|kod|šifra|password|passcode|lozinka|senha|código|passwort|geheimzahl|pw)\b)[^\p{L}\p{N}]{0,4}(?:is |je |é |ist )?$/iu;

/**
 * Numbers of three digits or more that no other rule kept or took, as `[number]`: what may name a
 * house, a room, a PIN, a booking or an account. Kept: dates, times, spans of years or times, years
 * from 1900 to 2099 and decades ("1990s"), versions (three numbers or more with dots, or after
 * "version", "build", "v"...), ports after an address already replaced, ordinals, and measures with
 * their unit ("42 km", "500 g", "20%"). Words of letters and three digits or more ("AB1234", "OU370")
 * go as `[number]` too.
 */
export function replaceNumbers(text: string): string {
  const out = text.replace(numberToken, (found: string, at: number, whole: string) => {
    if (short(found) || /T\p{Nd}{1,2}:/u.test(found)) return found;
    const after = whole.slice(at + found.length, at + found.length + 16);
    const before = whole.slice(Math.max(0, at - 24), at);
    if (keptNumber(found, before, after)) return found;
    return '[number]';
  });
  return out.replace(mixedWord, (found: string, at: number, whole: string) => {
    // A decade ("1990s"), a time written with an "h" ("9h30", "14h05"), an ordinal ("100th"): kept.
    if (/^(?:(?:19|20)\p{Nd}0s|\p{Nd}{1,2}h\p{Nd}{2}|\p{Nd}{1,4}(?:st|nd|rd|th))$/u.test(found)) return found;
    const before = whole[at - 1];
    if (before === '.' || before === '-' || before === '_') return found;
    return '[number]';
  });
}

const digits = (s: string) => s.match(/\p{Nd}/gu)?.length ?? 0;
/**
 * A number of small parts: fewer than three digits, or groups of one or two digits and fewer than five
 * in all ("1.5/2", "3-4"); "12-34-56" (a bank's sort code) is not.
 */
const short = (s: string) => {
  const n = digits(s);
  return n < 3 || (n < 5 && !/\p{Nd}{3}/u.test(s));
};

function keptNumber(found: string, before: string, after: string): boolean {
  if (secretBefore.test(before)) return false;
  const ascii = toAscii(found);
  // A time ("12:30", "12:30:45.123"), or one written with a dot or an "h" ("12.30", "9h30").
  if (/^\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?$/u.test(ascii)) return true;
  const dotted = /^(\d{1,2})\.(\d{2})$/u.exec(ascii);
  if (dotted && Number(dotted[1]) <= 23 && Number(dotted[2]) <= 59) return true;
  if (isDate(ascii) || isDayAndMonth(ascii) || isSpan(ascii)) return true;
  // A range of dates, apart by a dash between spaces ("2024-05-01 - 2024-05-31").
  const range = ascii.split(/ [–-] /u);
  if (range.length === 2 && range.every((d) => isDate(d) || isDayAndMonth(d))) return true;
  // A decimal: its whole part counts ("3.12", "42,5"); a part of three digits after one separator is
  // read as thousands ("3.200", "42.195").
  const fraction = /^(\d+)[.,](\d{1,2}|\d{4,})$/u.exec(ascii);
  if (fraction && fraction[1]!.length < 3) return true;
  if (/^(?:19|20)\d{2}$/u.test(ascii) && !/^[.,:/-]\d/u.test(after)) return true;
  if (isVersion(ascii) || versionWordBefore.test(before)) return true;
  if (ordinalAfter.test(after) && digits(ascii) <= 4) return true;
  return unitAfter.test(after);
}

/** Decimal digits of any script as ASCII ones, one for one. */
const toAscii = (s: string) =>
  s.replace(/\p{Nd}/gu, (d) => (d < '\u0080' ? d : String(digitValue(d.codePointAt(0)!))));

export const decimal = /\p{Nd}/u;
const digitValues = new Map<number, number>();

/**
 * The value of a decimal digit: its place in its script's run of ten (runs of Nd come whole). Kept once
 * found: the walk back over a block of five runs (the mathematical digits) is fifty steps.
 */
export function digitValue(c: number): number {
  let value = digitValues.get(c);
  if (value === undefined) {
    let start = c;
    while (start > 0 && decimal.test(String.fromCodePoint(start - 1))) start -= 1;
    value = (c - start) % 10;
    digitValues.set(c, value);
  }
  return value;
}

/** A day and a month ("12/05", "1.5."): a day from 1 to 31 and a month from 1 to 12, either first. */
function isDayAndMonth(s: string): boolean {
  const m = /^(\d{1,2})[./](\d{1,2})$/u.exec(s);
  if (!m) return false;
  const [x, y] = [Number(m[1]), Number(m[2])];
  return x >= 1 && y >= 1 && x <= 31 && y <= 31 && (x <= 12 || y <= 12);
}

/** A date written with numbers: year first, or day and month first, one separator throughout. */
function isDate(s: string): boolean {
  const m = /^(\d{1,4})([-./])(\d{1,2})\2(\d{1,4})$/u.exec(s);
  if (!m) return false;
  const [, a, , b, c] = m;
  if (a!.length === 4) return Number(b) >= 1 && Number(b) <= 12 && Number(c) >= 1 && Number(c) <= 31;
  const x = Number(a);
  const y = Number(b);
  return (
    (c!.length === 2 || c!.length === 4) && x >= 1 && y >= 1 && x <= 31 && y <= 31 && (x <= 12 || y <= 12)
  );
}

/** A span of years ("2019-2021", "2019-21") or of times of day ("0900-1700"), a date and a time. */
function isSpan(spelled: string): boolean {
  const s = spelled.replace(/[ ]?[–-][ ]?/u, '-');
  const m = /^(\d{4})-(\d{2}|\d{4})$/u.exec(s);
  if (m) {
    const [, from, to] = m;
    if (/^(?:19|20)/u.test(from!) && (to!.length === 2 || to! >= from!)) return true;
    return to!.length === 4 && isTime(from!) && isTime(to!);
  }
  return false;
}
const isTime = (s: string) => s.slice(0, 2) <= '23' && s.slice(2) <= '59';

/**
 * Three numbers or more with dots, not grouped in thousands ("1.2.3", "10.0.19045.1"; "1.200.000" is a
 * number), or a release with a dash after such a version ("6.5.0-1025").
 */
function isVersion(s: string): boolean {
  const dotted = s.split('-')[0]!;
  if ((dotted.match(/\./gu)?.length ?? 0) < 2) return false;
  return !/^\d{1,3}(?:\.\d{3})+(?:,\d+)?$/u.test(dotted);
}
