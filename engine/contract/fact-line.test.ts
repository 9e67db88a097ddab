import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { factLine, factSentence, factSentenceHead, factTopic, factValueWords } from './fact-line.ts';

const fact = (subject: string, predicate: string, value: unknown) => ({ subject, predicate, value });

describe('a fact said as a sentence', () => {
  it('says an attribute with its owner and "is": "Marko\'s birthday is March 13"', () => {
    assert.equal(factSentence(fact('Marko', 'birthday', 'March 13')), "Marko's birthday is March 13");
    assert.equal(factSentence(fact('Lea Horvat', 'employer', 'Infobip')), "Lea Horvat's employer is Infobip");
  });

  it('reads a snake_case predicate, or one with spaces, as words', () => {
    assert.equal(factSentence(fact('Ana', 'favourite_colour', 'green')), "Ana's favourite colour is green");
    assert.equal(
      factSentence(fact('Ana', 'phone number', '+385 91 000')),
      "Ana's phone number is +385 91 000",
    );
    assert.equal(factSentence(fact('Ana', '  home__city ', 'Porto')), "Ana's home city is Porto");
  });

  it('says a predicate that is already a verb phrase as a clause: "Lea lives in Zagreb"', () => {
    assert.equal(factSentence(fact('Lea', 'lives in', 'Zagreb')), 'Lea lives in Zagreb');
    assert.equal(factSentence(fact('Lea', 'works_at', 'Infobip')), 'Lea works at Infobip');
    assert.equal(factSentence(fact('Lea', 'is allergic to', 'peanuts')), 'Lea is allergic to peanuts');
    assert.equal(factSentence(fact('Lea', 'has', 'two cats')), 'Lea has two cats');
  });

  it('says a verb that a yes or no is said of as a verb with any other value too', () => {
    assert.equal(factSentence(fact('Lea', 'smokes', '5 a day')), 'Lea smokes 5 a day');
    assert.equal(factSentence(fact('self', 'travels', 'for work'), { you: {} }), 'You travel for work');
    assert.equal(factSentence(fact('self', 'exercises', 'daily'), { you: {} }), 'You exercise daily');
  });

  it('says a verb that is also a plural noun as a verb only of a yes or no, else as the thing named', () => {
    assert.equal(factSentence(fact('Lea', 'cycles', '28 days')), "Lea's cycles: 28 days");
    assert.equal(factSentence(fact('Lea', 'gardens', '2')), "Lea's gardens: 2");
    assert.equal(factSentence(fact('Lea', 'votes', '3')), "Lea's votes: 3");
    assert.equal(factSentence(fact('Lea', 'sails', 'red')), "Lea's sails: red");
    assert.equal(factSentence(fact('Lea', 'hikes', 'twice a month')), "Lea's hikes: twice a month");
    assert.equal(factTopic('Lea', 'cycles'), "Lea's cycles");
    assert.equal(factSentenceHead('Lea', 'cycles', {}, '28 days'), "Lea's cycles: ");
    // Of a yes or no they are verbs, as before.
    assert.equal(factSentence(fact('Lea', 'cycles', 'yes')), 'Lea cycles');
    assert.equal(factSentence(fact('Lea', 'dances', 'no')), 'Lea does not dance');
    assert.equal(factSentence(fact('self', 'climbs', false), { you: {} }), 'You do not climb');
    assert.equal(factSentenceHead('Lea', 'votes', {}, 'false'), 'Lea votes: ');
  });

  it('gives a relation named by a preposition its "is", and a birth its "was"', () => {
    assert.equal(factSentence(fact('Lea', 'married_to', 'Ivan')), 'Lea is married to Ivan');
    assert.equal(factSentence(fact('Lea', 'born in', 'Split')), 'Lea was born in Split');
  });

  it('says a predicate that ends in its verb without another "is"', () => {
    assert.equal(
      factSentence(fact('Ana', 'gym membership ends', 'March 3')),
      "Ana's gym membership ends March 3",
    );
  });

  it('says a calendar date in words, the same on every device, and leaves what is no date as written', () => {
    assert.equal(
      factSentence(fact('Lea', 'date_of_birth', '1990-05-04')),
      "Lea's date of birth is May 4, 1990",
    );
    assert.equal(factValueWords('2026-02-30'), '2026-02-30', 'no such day');
    assert.equal(factValueWords('2026-12-06T10:00:00Z'), '2026-12-06T10:00:00Z');
    assert.equal(factValueWords(42), '42');
  });

  it('says a yes or no as whether the predicate holds, in whichever language the value says it', () => {
    assert.equal(factSentence(fact('Lea', 'is_vegetarian', true)), 'Lea is vegetarian');
    assert.equal(factSentence(fact('Lea', 'is_vegetarian', 'false')), 'Lea is not vegetarian');
    for (const yes of [true, 'true', 'yes', 'Yes', 'da', 'sim', 'ja'])
      assert.equal(factSentence(fact('Lea', 'vegetarian', yes)), 'Lea is vegetarian', String(yes));
    for (const no of [false, 'false', 'no', ' NO ', 'ne', 'não', 'nein'])
      assert.equal(factSentence(fact('Lea', 'vegetarian', no)), 'Lea is not vegetarian', String(no));
  });

  it('turns a verb of a yes or no with "does not", "did not", "cannot", "has not"', () => {
    assert.equal(factSentence(fact('Lea', 'smokes', 'no')), 'Lea does not smoke');
    assert.equal(factSentence(fact('Lea', 'smokes', 'yes')), 'Lea smokes');
    assert.equal(factSentence(fact('Lea', 'has a car', true)), 'Lea has a car');
    assert.equal(factSentence(fact('Lea', 'has_a_car', false)), 'Lea does not have a car');
    assert.equal(factSentence(fact('Lea', 'likes_cats', 'nein')), 'Lea does not like cats');
    assert.equal(factSentence(fact('Lea', 'does yoga', 'no')), 'Lea does not do yoga');
    assert.equal(factSentence(fact('Lea', 'had surgery', 'no')), 'Lea did not have surgery');
    assert.equal(factSentence(fact('Lea', 'can_drive', 'ne')), 'Lea cannot drive');
    assert.equal(factSentence(fact('Lea', 'has been vaccinated', false)), 'Lea has not been vaccinated');
  });

  it('tells "has" before a participle from "has" before what is had', () => {
    assert.equal(factSentence(fact('Lea', 'has_red_hair', false)), 'Lea does not have red hair');
    assert.equal(factSentence(fact('Lea', 'has_bed', false)), 'Lea does not have bed');
    assert.equal(
      factSentence(fact('Lea', 'has_hundred_followers', false)),
      'Lea does not have hundred followers',
    );
    assert.equal(factSentence(fact('Lea', 'has_had_covid', false)), 'Lea has not had covid');
    assert.equal(factSentence(fact('Lea', 'has_got_a_car', false)), 'Lea has not got a car');
    assert.equal(factSentence(fact('Lea', 'has_visited_japan', false)), 'Lea has not visited japan');
    assert.equal(factSentence(fact('Lea', 'has_used_drugs', 'no')), 'Lea has not used drugs');
    assert.equal(factSentence(fact('Lea', 'has_lost_weight', 'no')), 'Lea has not lost weight');
    // "read" and "used" before a thing they qualify are a having ("read receipts"), else the perfect.
    assert.equal(factSentence(fact('Lea', 'has_read_receipts', 'no')), 'Lea does not have read receipts');
    assert.equal(factSentence(fact('Lea', 'has read access', false)), 'Lea does not have read access');
    assert.equal(factSentence(fact('Lea', 'has_used_car', 'no')), 'Lea does not have used car');
    assert.equal(factSentence(fact('Lea', 'has_read', 'no')), 'Lea has not read');
    assert.equal(factSentence(fact('Lea', 'has_read_the_book', false)), 'Lea has not read the book');
    assert.equal(factSentence(fact('self', 'has_had_covid', true), { you: {} }), 'You have had covid');
  });

  it('says a verb in the past as what was done, never as a state ("Lea is smoked")', () => {
    assert.equal(factSentence(fact('Lea', 'smoked', true)), 'Lea smoked');
    assert.equal(factSentence(fact('Lea', 'smoked', 'no')), 'Lea did not smoke');
    assert.equal(factSentence(fact('Lea', 'voted', 'ja')), 'Lea voted');
    assert.equal(factSentence(fact('Lea', 'studied_abroad', false)), 'Lea did not study abroad');
    assert.equal(factSentence(fact('Lea', 'never_smoked', true)), 'Lea never smoked');
    assert.equal(factSentence(fact('Lea', 'never_smoked', false)), 'Lea never smoked: no');
    assert.equal(factSentence(fact('self', 'smoked', false), { you: {} }), 'You did not smoke');
    // A past it does not know, and a verb with an adjective's ending: the topic and its yes.
    assert.equal(factSentence(fact('Lea', 'survived', true)), "Lea's survived: yes");
    assert.equal(factSentence(fact('Lea', 'drive', true)), "Lea's drive: yes");
    assert.equal(factSentence(fact('Lea', 'survive', false)), "Lea's survive: no");
    // The participles that name a state are listed.
    assert.equal(factSentence(fact('Lea', 'vaccinated', true)), 'Lea is vaccinated');
    assert.equal(factSentence(fact('Lea', 'self_employed', 'da')), 'Lea is self employed');
    assert.equal(factSentence(fact('Lea', 'divorced', false)), 'Lea is not divorced');
    assert.equal(factSentence(fact('Lea', 'stressed', true)), 'Lea is stressed');
  });

  it('says a state with "is" and a kind of person with "is a"', () => {
    assert.equal(factSentence(fact('Lea', 'allergic_to_nuts', 'yes')), 'Lea is allergic to nuts');
    assert.equal(factSentence(fact('Lea', 'married', 'não')), 'Lea is not married');
    assert.equal(factSentence(fact('Lea', 'lactose intolerant', true)), 'Lea is lactose intolerant');
    assert.equal(factSentence(fact('Lea', 'smoker', 'false')), 'Lea is not a smoker');
    assert.equal(factSentence(fact('Lea', 'organ_donor', 'da')), 'Lea is an organ donor');
    assert.equal(factSentence(fact('Lea', 'is_admin', 'no')), 'Lea is not an admin');
    assert.equal(factSentence(fact('Lea', 'member of the club', 'sim')), 'Lea is a member of the club');
  });

  it('gives a kind of person no article after a preposition, and "a" before "eu" and "one"', () => {
    assert.equal(factSentence(fact('Lea', 'is_with_partner', false)), 'Lea is not with partner');
    assert.equal(factSentence(fact('Lea', 'with_partner', true)), 'Lea is with partner');
    assert.equal(factSentence(fact('Lea', 'european_citizen', true)), 'Lea is a european citizen');
    assert.equal(factSentence(fact('Lea', 'one_time_donor', true)), 'Lea is a one time donor');
    assert.equal(factSentence(fact('Lea', 'eu_citizen', true)), 'Lea is a eu citizen');
    assert.equal(factSentence(fact('Lea', 'university_student', true)), 'Lea is a university student');
    assert.equal(factSentence(fact('Lea', 'online_user', true)), 'Lea is an online user');
    assert.equal(factSentence(fact('Lea', 'honorary_member', true)), 'Lea is an honorary member');
  });

  it('says a yes or no of "you" with the verb agreeing', () => {
    const you = { you: { selfName: undefined } };
    assert.equal(factSentence(fact('self', 'is_vegetarian', 'no'), you), 'You are not vegetarian');
    assert.equal(factSentence(fact('self', 'smokes', 'no'), you), 'You do not smoke');
    assert.equal(factSentence(fact('self', 'has_a_car', 'yes'), you), 'You have a car');
    assert.equal(factSentence(fact('self', 'smoker', 'ja'), you), 'You are a smoker');
    assert.equal(
      factSentence(fact('self', 'smokes', 'no'), { you: { selfName: 'Ana' } }),
      'Ana does not smoke',
    );
  });

  it('keeps "<topic>: yes" for a predicate it cannot turn, never a sentence ending in a yes', () => {
    // An attribute that names no state ("Lea is a newsletter" is what a guess from "-er" says).
    assert.equal(factSentence(fact('Lea', 'newsletter', true)), "Lea's newsletter: yes");
    // A relation wants its other end, which a yes does not name.
    assert.equal(factSentence(fact('Lea', 'married_to', 'true')), 'Lea is married to: yes');
    // A verb that wants what is liked.
    assert.equal(factSentence(fact('Lea', 'likes', true)), 'Lea likes: yes');
    // "not" already said: no double negative.
    assert.equal(factSentence(fact('Lea', 'is_not_vegetarian', 'no')), 'Lea is not vegetarian: no');
    assert.equal(factSentence(fact('Ana', '_', 'no')), 'Ana: no');
  });

  it('reads a word that says yes or no in some language as written where the predicate asks no yes or no', () => {
    // "ja" is Japanese, "da" Danish, "NO" Norway: only true and false say yes or no of any predicate.
    assert.equal(factSentence(fact('Lea', 'language', 'ja')), "Lea's language is ja");
    assert.equal(factSentence(fact('Lea', 'preferred_language', 'da')), "Lea's preferred language is da");
    assert.equal(factSentence(fact('Lea', 'country', 'NO')), "Lea's country is NO");
    assert.equal(factSentence(fact('Lea', 'nickname', 'Ne')), "Lea's nickname is Ne");
    assert.equal(factSentence(fact('Lea', 'speaks', 'da')), 'Lea speaks da');
    assert.equal(factSentence(fact('Lea', 'newsletter', 'sim')), "Lea's newsletter is sim");
    // English's yes and no say so of any predicate, as true and false do.
    assert.equal(factSentence(fact('Lea', 'newsletter', 'yes')), "Lea's newsletter: yes");
    assert.equal(factSentence(fact('Lea', 'married_to', 'No')), 'Lea is married to: no');
    assert.equal(factSentenceHead('Lea', 'language', {}, 'ja'), "Lea's language is ");
    assert.equal(factSentenceHead('Lea', 'country', {}, 'NO'), "Lea's country is ");
    assert.equal(factValueWords('ja'), 'ja');
    assert.equal(factValueWords('nein'), 'nein');
    assert.equal(factValueWords(false), 'no');
    assert.equal(factValueWords('true'), 'yes');
    // Where it does ask one, a word it cannot turn with is still a yes or no.
    assert.equal(factSentence(fact('Lea', 'is_not_vegetarian', 'nein')), 'Lea is not vegetarian: no');
  });

  it("starts a yes or no fact's head from what it says holds, so the stored value follows it", () => {
    assert.equal(factSentenceHead('Lea', 'smokes', {}, 'false'), 'Lea smokes: ');
    assert.equal(factSentenceHead('Lea', 'smoker', {}, 'false'), 'Lea is a smoker: ');
    assert.equal(factSentenceHead('Lea', 'newsletter', {}, true), "Lea's newsletter: ");
    // What a Context's change header says a slot is of: a verb as a verb, as "Lea lives in" is.
    assert.equal(factTopic('Lea', 'smokes'), 'Lea smokes');
    assert.equal(factTopic('Lea', 'newsletter'), "Lea's newsletter");
  });

  it("speaks to the Brain's own person by name, or as you, with the verb agreeing", () => {
    const you = { you: { selfName: undefined } };
    assert.equal(
      factSentence(fact('self', 'favourite_colour', 'green'), you),
      'Your favourite colour is green',
    );
    assert.equal(factSentence(fact('self', 'lives in', 'Porto'), you), 'You live in Porto');
    assert.equal(factSentence(fact('self', 'studies at', 'FER'), you), 'You study at FER');
    assert.equal(factSentence(fact('self', 'watches', 'films'), you), 'You watch films');
    assert.equal(factSentence(fact('self', 'is allergic to', 'nuts'), you), 'You are allergic to nuts');
    assert.equal(factSentence(fact('self', 'born in', 'Split'), you), 'You were born in Split');
    assert.equal(
      factSentence(fact('self', 'lives in', 'Porto'), { you: { selfName: 'Ana' } }),
      'Ana lives in Porto',
    );
  });

  it('says a predicate of no words as the subject and its value', () => {
    assert.equal(factSentence(fact('Ana', '_', 'x')), 'Ana: x');
  });

  it('names what a fact is of without its value, and leaves the citable line as it was', () => {
    assert.equal(factTopic('Marko', 'birthday'), "Marko's birthday");
    assert.equal(factTopic('Lea', 'lives in'), 'Lea lives in');
    assert.equal(factTopic('Lea', 'date_of_birth'), "Lea's date of birth");
    assert.equal(factSentenceHead('Marko', 'birthday'), "Marko's birthday is ");
    // What is indexed and quoted: the line a citation's quote is a span of, unchanged.
    assert.equal(factLine(fact('Marko', 'birthday', 'March 13')), 'Marko birthday: March 13');
  });
});
