import assert from 'node:assert/strict';
import { test } from 'node:test';
import { askedWho, definitionsOf } from './who-question.ts';

test('a question asking who someone named is gives the name, in any case and in several languages', () => {
  assert.equal(askedWho('Who is Luka?'), 'luka');
  assert.equal(askedWho("who's luka"), 'luka');
  assert.equal(askedWho('Who’s Luka again?'), 'luka');
  assert.equal(askedWho('Tko je Luka?'), 'luka');
  assert.equal(askedWho('ko je luka'), 'luka');
  assert.equal(askedWho('Who was Ana Sousa?'), 'ana sousa');
  assert.equal(askedWho('Quem é a Rita?'), 'rita');
  assert.equal(askedWho('Wer ist Jonas?'), 'jonas');
  assert.equal(askedWho('So who is José exactly?'), 'jose');
});

test('a question about someone of the self, someone else or anything else asks no name', () => {
  assert.equal(askedWho('Who is my dentist?'), null);
  assert.equal(askedWho("Who is Luka's wife?"), null);
  assert.equal(askedWho('Who is coming to dinner on Friday?'), null);
  assert.equal(askedWho('Who is she?'), null);
  assert.equal(askedWho('Where does Luka live?'), null);
  assert.equal(askedWho('Who is Melanie a fan of in terms of modern music?'), null);
  assert.equal(askedWho('Tko je bio na večeri?'), null);
});

test('a statement of who the person is to the self ranks above one of what they are, and a mention is neither', () => {
  const luka = definitionsOf('luka');
  assert.equal(luka("Luka is my brother-in-law, Ana's husband."), 1);
  assert.equal(luka('Luka, my colleague from Span, sent the slides.'), 1);
  assert.equal(luka('Luka (my neighbour) fixed the fence.'), 1);
  assert.equal(luka('I called my brother Luka yesterday.'), 1);
  assert.equal(luka('Call my brother Luka tomorrow.'), 1);
  assert.equal(luka('Luka - my boss.'), 1);
  assert.equal(definitionsOf('dr babic')('Dr. Babić is my dentist.'), 1);
  assert.equal(luka('My brother-in-law Luka is a plumber.'), 1);
  assert.equal(luka('Had lunch with my old friend Luka.'), 1);
  assert.equal(luka('Luka je moj šogor.'), 1);
  assert.equal(luka('Luka Perić is my dentist.'), 1);
  assert.equal(luka("Luka's also my landlord."), 1);
  assert.equal(luka('Luka is a carpenter from Split.'), 2);
  assert.equal(luka("Luka is Ana's husband."), 2);
  assert.equal(luka("Ana's husband Luka called."), 2);
  assert.equal(luka('Luka works at Infobip.'), 2);
  for (const said of [
    "Dinner at Ana and Luka's place, Luka made sarma.",
    'Ana says Luka is stressed about money lately.',
    'Luka is a bit tired these days.',
    'Luka borrowed my drill again.',
    'Gave my keys to Luka.',
    'Luka got the job at Infobip!',
    'Lukas is my neighbour.',
    'My brother is coming with Luka.',
    'I told my mum Luka is coming for dinner.',
    'Luka, my car will not start again.',
    'Luka, my phone died.',
    'Luka, my mum says hi.',
    'Luka, my flight lands at 6.',
    'Luka is an hour late, as always.',
  ])
    assert.equal(luka(said), 0, said);
});
