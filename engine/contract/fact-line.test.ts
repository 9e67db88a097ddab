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
    assert.equal(factSentence(fact('Lea', 'is_vegetarian', true)), 'Lea is vegetarian: yes');
    assert.equal(factSentence(fact('Lea', 'smoker', 'false')), "Lea's smoker: no");
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
