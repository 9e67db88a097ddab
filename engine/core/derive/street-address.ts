import { products } from './not-a-place.ts';
import { months, weekdays } from '../retrieve/calendar-words.ts';
import { normalizeStatement } from './record-text.ts';

/*
 * A street address, as people give where they live: a street's name and its house number ("Vlaška 17",
 * "Rua de Santa Catarina 120", "Sporgasse 12a") or, as English writes it, the number first and a word
 * that says street ("221B Baker Street", "10 Downing St"). Its shape is what tells "I live at Vlaška
 * 17" (a home) from "I live at the gym these days" or "we played live at the Arena" (none): the slot
 * of where one lives is read from it only where a house number stands beside a capitalised name.
 */

/** The small words inside a street's name: "Rua de Santa Catarina", "Calle del Prado". */
const particle = String.raw`(?:de|da|do|dos|das|del|della|di|du|van|von|der|den|la|le)`;
/**
 * The words for a street that Croatian (and its neighbours) write in lower case after the street's own
 * name: "Savska cesta 41", "Trnjanska cesta 5", "Zagrebačka avenija 2", "Riječka obala 3".
 */
const lowerStreetWord = String.raw`(?:cesta|ulica|trg|put|obala|avenija|bulevar|prilaz|šetalište|naselje|vijenac|cesti|ulici)`;
/**
 * Up to four capitalised words, a small word of a name between two of them, or a street's word in lower
 * case after them ("Savska cesta").
 */
const streetName = String.raw`\p{Lu}[\p{L}\p{M}'’.-]*(?:\s+(?:(?:${particle}\s+(?=\p{Lu}))?\p{Lu}[\p{L}\p{M}'’.-]*|${lowerStreetWord}(?![\p{L}\p{N}]))){0,3}`;
/**
 * Words after a number that make it a count or a time, not a house's: "2 nights a week", "5 pm",
 * "3 times", "20 minutes away".
 */
const counted = String.raw`(?:nights?|days?|weeks?|months?|years?|hours?|hrs?|minutes?|mins?|seconds?|secs?|times?|am|pm|a\.m\.|p\.m\.|o['’]clock|percent|people|persons|guests|km|kms|miles?|blocks?|metres?|meters?|euros?|eur|dollars?|usd|kg)`;
/** A house number: "17", "12a", "221B", "4/2", "10-12"; not a year ("Ilica 1990") nor a count. */
const houseNumber = String.raw`(?!(?:19|20)\d\d(?![\p{L}\p{N}]))\d{1,4}[A-Za-z]?(?:[/-]\d{1,4}[A-Za-z]?)?(?![\p{L}\p{N}])(?!\.\d)(?!\s+${counted}(?![\p{L}\p{N}]))`;
/** The words English closes a street's name with: "Baker Street", "Main St.", "Sunset Blvd". */
const streetKinds = String.raw`(?:Street|St|Road|Rd|Avenue|Ave|Av|Lane|Ln|Drive|Dr|Boulevard|Blvd|Way|Place|Pl|Court|Ct|Terrace|Tce|Square|Sq|Crescent|Cres|Close|Row|Parkway|Pkwy|Hill|Gardens|Grove|Walk|Mews|Highway|Hwy)`;
/** "221B Baker Street": the number first, then the street's name and its kind. */
export const numberFirstAddress = String.raw`\d{1,5}[A-Za-z]?\s+(?:\p{Lu}[\p{L}\p{M}'’-]*\s+){1,3}${streetKinds}\.?(?![\p{L}\p{N}])`;
/** "Vlaška 17": the street's name, then the house number. */
const numberAfterAddress = String.raw`${streetName}\s+${houseNumber}`;
/** A street address, in either order (unnamed groups only: a pattern names its value around it). */
export const streetAddress = String.raw`(?:${numberFirstAddress}|${numberAfterAddress})`;
/** A word of a street's name, in the lookahead for a word that says street. */
const aWord = String.raw`[\p{L}\p{M}'’.-]+`;
/**
 * The words that say a name is a street's wherever they stand in it: "Savska cesta", "Ulica Baruna
 * Trenka", "Via Roma", "Rua Augusta", "Calle Mayor", "Baker Street".
 */
const saysStreet = String.raw`(?:${lowerStreetWord}|Cesta|Ulica|Trg|Avenija|Bulevar|Via|Viale|Corso|Piazza|Rua|Avenida|Calle|Carrer|Rue|Straße|Strasse|Gasse|${streetKinds}\.?)`;
/**
 * A street address whose words say it is a street ("Savska cesta 41", "Via Roma 5", "221B Baker
 * Street"): a home after "moved to" as much as after "live at", where "Vlaška 17" alone may be a version
 * ("We moved to Java 17").
 */
export const saidStreetAddress = String.raw`(?:${numberFirstAddress}|(?=(?:${aWord}\s+){0,3}${saysStreet}(?:\s+${aWord}){0,3}\s+\d)${numberAfterAddress})`;

/**
 * What a capitalised name with a number after it is when it is no street: a stage, a version, a seat, a
 * room or a unit of something ("Phase 2", "Sprint 14", "Room 12", "Gate 5", "Level 3"). A product's name
 * is none either ("Windows 11", "Python 3": not-a-place.ts).
 */
const notAStreet = new Set(
  `phase round stage step level sprint version release season chapter part week day year grade class
   form room suite unit floor storey gate terminal platform track row seat ward bed tier series episode
   section page figure item iteration milestone lot pier dock bay booth desk locker slot box
   route bus tram line flight train channel station studio hall court pitch field lane table exit
   junction mile km number no nr q`.split(/\s+/u),
);

const whole = new RegExp(`^${streetAddress}$`, 'u');
/** A street address said at a text's start, for what reads the words after it. */
const opening = new RegExp(`^${streetAddress}`, 'u');

/** Whether a value is a street address (streetAddress), and not a stage, a room or a product's version. */
export function streetAddressShaped(value: string): boolean {
  return whole.test(value) && !notAStreetWord(value);
}

/** The street address a text opens with ("Vlaška 17 in Zagreb, third floor": "Vlaška 17"), or null. */
export function streetAddressOpening(text: string): string | null {
  const found = opening.exec(text)?.[0];
  return found === undefined || notAStreetWord(found) ? null : found;
}

function notAStreetWord(value: string): boolean {
  const first = value.split(/\s+/u)[0]!.toLowerCase().replace(/\.$/u, '');
  return /^\d/u.test(first) ? false : notAStreet.has(first) || products.has(first);
}

/**
 * What a capitalised word after a house number is when it names no city: a part of the building ("Vlaška
 * 17, Apt 3", "…, Third Floor"), a day or a month ("I live at Vlaška 17 in March"), a country's or a
 * region's word alone is still a place and is kept.
 */
const notACity = new Set(
  `apt apartment flat floor storey ground first second third fourth fifth sixth top attic basement
   entrance stair stairs staircase door building block wing tower house rear back front left right
   c/o attn po p.o. box`.split(/\s+/u),
);
/**
 * The city said right after a street address: "… in Zagreb", ", Zagreb", ", 10000 Zagreb" (a postal
 * code before it), ", London NW1 6XE" (one after it). Up to three capitalised words, a small word
 * between two of them ("Vila Nova de Gaia").
 */
const cityAfter = new RegExp(
  String.raw`^(?:\s*,\s*|\s+in\s+)(?:\d{4,6}\s+)?(?<city>\p{Lu}[\p{L}\p{M}'’-]*(?:[\s-](?:${particle}\s+)?\p{Lu}[\p{L}\p{M}'’-]*){0,2})(?![\p{L}\p{N}])`,
  'u',
);

/**
 * The city a text opening after a street address names ("Vlaška 17 in Zagreb, third floor": " in
 * Zagreb, third floor" gives "Zagreb"), and how much of the text says it; null where it names none.
 */
export function cityAfterAddress(text: string): { city: string; length: number } | null {
  const m = cityAfter.exec(text);
  if (m === null) return null;
  const city = m.groups!['city']!.replace(/(?<![.’'-])[.’'-]+$/u, '');
  const first = city.split(/[\s-]/u)[0]!.toLowerCase();
  if (notACity.has(first) || notAStreet.has(first) || months.includes(first) || weekdays.includes(first))
    return null;
  return { city, length: m[0].length - (m.groups!['city']!.length - city.length) };
}

/**
 * Where one lives, as the home slot holds it: a city or a place ("Zagreb"), a street address
 * ("Vlaška 17"), or both ("Vlaška 17, Zagreb"): the address refines the city it is in.
 */
export interface HomeParts {
  street: string | null;
  city: string | null;
}

/** A home's value of its street and its city (HomeParts): "Vlaška 17, Zagreb", or either alone. */
export function homeValue(home: HomeParts): string {
  return [home.street, home.city].filter((x): x is string => x !== null).join(', ');
}

/** The street and the city a home's value gives (homeValue's forms); a value of neither, all city. */
export function homeParts(value: string): HomeParts {
  const v = value.trim();
  if (streetAddressShaped(v)) return { street: v, city: null };
  const street = streetAddressOpening(v);
  const city = street === null ? null : cityAfterAddress(v.slice(street.length));
  if (street !== null && city !== null && street.length + city.length === v.length)
    return { street, city: city.city };
  return { street: null, city: v };
}

/** Whether a home's value is given by its street address, with its city or without (homeParts). */
export function homeAddressShaped(value: string): boolean {
  return homeParts(value).street !== null;
}

/**
 * A home said now, read beside the one holding the slot then (`held`): an address said alone is in the
 * city held ("Vlaška 17" beside "Zagreb" is "Vlaška 17, Zagreb"), and the city held said again is the
 * home held ("Zagreb" beside "Vlaška 17, Zagreb"): neither replaces what it refines or restates. A city
 * of its own, or an address in a city of its own, is a home of its own: it replaces both. Null where
 * the home said stays as said.
 */
export function homeBeside(said: string, held: string): string | null {
  const [now, then] = [homeParts(said), homeParts(held)];
  const same = (a: string | null, b: string | null) =>
    a !== null && b !== null && normalizeStatement(a) === normalizeStatement(b);
  if (now.street !== null && now.city === null && then.city !== null)
    return same(now.street, then.street) ? held.trim() : homeValue({ street: now.street, city: then.city });
  if (now.street === null && then.street !== null && same(now.city, then.city)) return held.trim();
  return null;
}
