import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { occupationSaid } from './occupation.ts';
import { slotKey, slotPredicate } from './slot-key.ts';
import { attributeSentence, slotSentences } from './slot-sentences.ts';

const self = { state: 'self', entity: 'Bo' };

describe('slotKey: one slot per meaning, whether a fact or a sentence said it', () => {
  it("a fact's home or employer predicate is the slot the sentence reader holds", () => {
    const home = slotKey('Bo', slotSentences('I moved to Porto.').slots[0]!.predicate, self);
    for (const p of ['home_city', 'Home City', 'home', 'city', 'lives_in', 'location', 'residence'])
      assert.equal(slotKey('me', p, self), home, p);
    const job = slotKey('Bo', slotSentences('I work at BMW now.').slots[0]!.predicate, self);
    for (const p of ['employer', 'company', 'workplace', 'works_at', 'job_company', 'works for'])
      assert.equal(slotKey('me', p, self), job, p);
  });

  it('phone, e-mail, favourites, a diet, a marital status, a school and an occupation read as the sentence reader spells them', () => {
    const of = (s: string) => slotKey('Bo', attributeSentence(s)!.predicate, self);
    assert.equal(slotKey('me', 'phone', self), of('My phone number is 912 345 678.'));
    assert.equal(slotKey('me', 'mobile_number', self), of('My phone number is 912 345 678.'));
    assert.equal(slotKey('me', 'email', self), of('My email is bo@example.com'));
    assert.equal(slotKey('me', 'favorite_color', self), of('My favourite colour is blue.'));
    assert.equal(slotKey('me', 'favourite_colour', self), of('My favorite color is blue.'));
    assert.equal(slotKey('me', 'dietary_preference', self), of("I'm vegan now."));
    assert.equal(slotKey('me', 'marital_status', self), of('I got married!'));
    assert.equal(slotKey('me', 'university', self), of('I study at MIT.'));
    const occupation = slotKey('Bo', occupationSaid('I work as a nurse.')!.predicate, self);
    for (const p of ['job_title', 'occupation', 'profession'])
      assert.equal(slotKey('me', p, self), occupation, p);
    // The name she goes by, as "most people call me Bo" holds it (nickname.ts).
    for (const p of ['nickname', 'goes_by', 'known_as', 'preferred_name', 'nick_name'])
      assert.equal(slotKey('me', p, self), slotKey('Bo', 'nickname', self), p);
  });

  it('a predicate of another meaning keeps its own slot', () => {
    for (const [p, read] of [
      ['hometown', 'hometown'],
      ['home_address', 'home address'],
      ['job', 'job'],
      ['work', 'work'],
      ['mobile', 'mobile'],
      ['sister', 'sister'],
      // "Ana called Mom": a call, not her name (nor Mom hers).
      ['called', 'called'],
    ])
      assert.equal(slotPredicate(p!), read, p);
    assert.notEqual(slotKey('me', 'hometown', self), slotKey('me', 'home_city', self));
  });

  it('the subject part is unchanged: another person keeps their own slot', () => {
    assert.equal(slotKey('Carla', 'home_city', { state: 'other', entity: 'Carla' }), 'carla\u001flives in');
    assert.notEqual(
      slotKey('Carla', 'home_city', { state: 'other', entity: 'Carla' }),
      slotKey('me', 'home_city', self),
    );
  });
});
