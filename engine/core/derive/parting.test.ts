import assert from 'node:assert/strict';
import { test } from 'node:test';
import { partingSaid, partnersEndedBy, pastPartnerTold, reunionSaid } from './parting.ts';

const partners = ['partner', 'girlfriend', 'boyfriend', 'fiancé', 'wife', 'husband'];
const status = { predicate: 'relationship status', values: ['in a relationship', 'engaged'] };
const anyPartner = [...partners.map((predicate) => ({ predicate, oneOf: 'partner' })), status];

test('a parting with no name ends whichever partner holds the slot, and being together', () => {
  for (const s of [
    'We broke up.',
    "we've split up 😢",
    'We finally called it quits',
    'He dumped me.',
    'I broke up with him.',
    'i dumped him...',
    'Ugh, we broke up',
    'So yeah, we broke up :(',
    'we broke up 2 weeks ago',
    'we brokeup',
    'We broke up and I’m devastated.',
    'we broke up, it was mutual',
    "I'm not with him anymore",
    "we're not together anymore",
    'we ended things',
    'We parted ways',
    'I got dumped lol',
    'She broke up with me over text.',
    'he dumped me on my birthday lol',
    'We broke up over the phone last night',
    "We broke up on Valentine's Day",
  ])
    assert.deepEqual(partingSaid(s), anyPartner, s);
});

test('a parting said of tonight, earlier today or another day this week ends as one of last night', () => {
  for (const when of [
    'tonight',
    'today',
    'earlier today',
    'this morning',
    'earlier this evening',
    'yesterday',
    'yesterday evening',
    'the other day',
    'last Friday',
    'this past weekend',
    'just now',
  ]) {
    assert.deepEqual(partingSaid(`We broke up ${when}.`), anyPartner, when);
    assert.deepEqual(
      partingSaid(`Petra and I broke up ${when}.`),
      [
        ...partners.map((predicate) => ({ predicate, values: ['Petra'], oneOf: 'partner' })),
        { ...status, withPartner: true },
      ],
      when,
    );
  }
});

test('a parting names the partner, by role or by name, in any case a chat writes it', () => {
  assert.deepEqual(partingSaid('My husband and I split up'), [
    { predicate: 'husband', oneOf: 'partner' },
    status,
  ]);
  assert.deepEqual(partingSaid('me and my bf broke up'), [
    { predicate: 'boyfriend', oneOf: 'partner' },
    status,
  ]);
  assert.deepEqual(partingSaid('my bf dumped me lol'), [
    { predicate: 'boyfriend', oneOf: 'partner' },
    status,
  ]);
  assert.deepEqual(partingSaid('My wife left me.'), [{ predicate: 'wife', oneOf: 'partner' }, status]);
  for (const s of ["I'm not with my boyfriend anymore", 'My boyfriend is my ex now'])
    assert.deepEqual(partingSaid(s), [{ predicate: 'boyfriend', oneOf: 'partner' }, status], s);
  assert.deepEqual(partingSaid("I'm no longer with my husband"), [
    { predicate: 'husband', oneOf: 'partner' },
    status,
  ]);
  // What is said of it after it is how it went, unless it unsays it.
  for (const s of [
    "we broke up, he wasn't the one",
    "We broke up and I'm single again",
    "it's over between us",
  ])
    assert.deepEqual(partingSaid(s), anyPartner, s);
  assert.deepEqual(partingSaid('My boyfriend and I are no longer together'), [
    { predicate: 'boyfriend', oneOf: 'partner' },
    status,
  ]);
  // A name may be no partner's: the status ends only where the name ended a partner.
  const named = (name: string, roles = partners) => [
    ...roles.map((predicate) => ({ predicate, values: [name], oneOf: 'partner' })),
    { ...status, withPartner: true },
  ];
  for (const [s, name] of [
    ['I broke up with Tom.', 'Tom'],
    ['Tom and I broke up last week', 'Tom'],
    ['Me and Tom split up.', 'Tom'],
    ['i broke up with tom', 'tom'],
    ['Tom is my ex now', 'Tom'],
    ['I broke up with Facebook', 'Facebook'],
    ["it's over with tom", 'tom'],
    ["it's over between tom and me", 'tom'],
    ['Google dumped me', 'Google'],
  ] as const)
    assert.deepEqual(partingSaid(s), named(name), s);
  assert.deepEqual(partingSaid('Tom is no longer my boyfriend'), named('Tom', ['boyfriend']));
  // A role with its name beside it: that partner in that role; words of when or how are no name.
  for (const [s, role, name] of [
    ['I broke up with my boyfriend Tom', 'boyfriend', 'Tom'],
    ['My boyfriend Tom and I split up', 'boyfriend', 'Tom'],
    ['i broke up with my bf jake yesterday', 'boyfriend', 'jake'],
    ['I divorced my husband, Pedro', 'husband', 'Pedro'],
    ['I broke up with my boyfriend Tom Reyes last week', 'boyfriend', 'Tom Reyes'],
  ] as const)
    assert.deepEqual(partingSaid(s), named(name, [role]), s);
  for (const s of [
    'I broke up with my boyfriend today',
    'I broke up with my boyfriend over text',
    'I broke up with my boyfriend, sadly',
    'i broke up with my bf smh',
    'I broke up with my boyfriend Christmas Eve',
    'I broke up with my boyfriend Tuesday',
  ])
    assert.deepEqual(partingSaid(s), [{ predicate: 'boyfriend', oneOf: 'partner' }, status], s);
});

test('what is no parting, or no parting of now, ends nothing', () => {
  for (const s of [
    'We split the bill.',
    "it's over with the renovation",
    'the game is over',
    'We split.',
    'It got late. We split.',
    'I broke up with the band',
    'I broke up with my ex boyfriend years ago and we are friends now',
    'I dumped it',
    'They dumped me.',
    'The bus left me',
    'He left me.',
    'Tom left me',
    'Then Tom broke up with me.',
    'I left my job',
    'We broke up the fight',
    'We called it quits, it was late',
    'we broke up last year',
    'we broke up in 2015 but got back together',
    'We broke up but we are still friends',
    'Did you break up?',
    "I don't want to break up",
  ])
    assert.equal(partingSaid(s), null, s);
});

test('being single, or in a relationship no more, ends any partner; a divorce a wife or a husband', () => {
  assert.deepEqual(
    partnersEndedBy('single'),
    partners.map((predicate) => ({ predicate })),
  );
  assert.deepEqual(
    partnersEndedBy('in a relationship', true),
    partners.map((predicate) => ({ predicate })),
  );
  assert.deepEqual(partnersEndedBy('divorced'), [{ predicate: 'wife' }, { predicate: 'husband' }]);
  assert.deepEqual(partnersEndedBy('married'), []);
  assert.deepEqual(partnersEndedBy('single', true), []);
});

test('getting back together names the partners a parting ended: any, by role, or by name', () => {
  const together = { ...status, withPartner: true };
  for (const s of ['we got back together', "We're back together!", 'I got back together with him'])
    assert.deepEqual(
      reunionSaid(s),
      [...partners.map((predicate) => ({ predicate, oneOf: 'partner' })), together],
      s,
    );
  assert.deepEqual(reunionSaid('me and my bf are back together lol'), [
    { predicate: 'boyfriend', oneOf: 'partner' },
    together,
  ]);
  assert.deepEqual(reunionSaid("I'm back with Tom"), [
    ...partners.map((predicate) => ({ predicate, values: ['Tom'], oneOf: 'partner' })),
    together,
  ]);
  for (const s of ["I'm back with my family", 'I got back with the band', 'we got back together in 2015'])
    assert.equal(reunionSaid(s), null, s);
});

test('after a story of a partner of the past, "he" and "we" are that partner: by name, or none', () => {
  assert.deepEqual(pastPartnerTold('I dated Jake in college.'), { name: 'Jake' });
  assert.deepEqual(pastPartnerTold('i used to go out with mark'), { name: 'mark' });
  assert.deepEqual(pastPartnerTold('My ex-boyfriend Jake was awful.'), { name: 'Jake' });
  assert.deepEqual(pastPartnerTold('my ex boyfriend, Jake, called'), { name: 'Jake' });
  assert.deepEqual(pastPartnerTold('My ex was awful.'), { name: null });
  assert.deepEqual(pastPartnerTold('I dated someone in college.'), { name: null });
  assert.deepEqual(pastPartnerTold('I dated Jake Miller for two years.'), { name: 'Jake' });
  assert.deepEqual(pastPartnerTold('My ex-wife called.'), { name: null });
  // One goes out with friends and sees doctors; an ex boss is no partner.
  for (const s of [
    'My boyfriend is Tom.',
    'I date a lot.',
    'Rex is my dog.',
    'I was with Tom at the mall.',
    'I went out with friends last night.',
    'i went out with friends last night',
    'I was seeing a therapist about it.',
    'I was seeing Dr. Costa about my knee.',
    'My ex boss called me today.',
  ])
    assert.equal(pastPartnerTold(s), null, s);
  const jake = { name: 'Jake' };
  const endsJake = [
    ...partners.map((predicate) => ({ predicate, values: ['Jake'], oneOf: 'partner' })),
    { ...status, withPartner: true },
  ];
  for (const s of ['He dumped me.', 'We broke up.', 'I got dumped.', "I'm not with him anymore"])
    assert.deepEqual(partingSaid(s, jake), endsJake, s);
  assert.equal(partingSaid('He dumped me.', { name: null }), null);
  // Named by role or by name, the parting is what it says, whatever came before.
  assert.deepEqual(partingSaid('My boyfriend dumped me.', jake), [
    { predicate: 'boyfriend', oneOf: 'partner' },
    status,
  ]);
  assert.deepEqual(partingSaid('I broke up with Tom.', jake)?.[0], {
    predicate: 'partner',
    values: ['Tom'],
    oneOf: 'partner',
  });
  assert.deepEqual(reunionSaid('We got back together.', jake)?.at(-1), {
    ...status,
    withPartner: true,
  });
  assert.deepEqual(reunionSaid('We got back together.', jake)?.[0], {
    predicate: 'partner',
    values: ['Jake'],
    oneOf: 'partner',
  });
});
