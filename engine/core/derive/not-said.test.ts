import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isCourtesy, isUnsaid, notSaid, quoteOpening, quotes } from './not-said.ts';

const unsaid = (text: string) => notSaid(text).map((r) => text.slice(r.start, r.end));

test('a reply: the header lines, the quote with its "wrote:" line and the signature are not said', () => {
  const mail = [
    'Subject: Re: Q2 budget',
    'From: Ana Silva <ana@acme.example>',
    'To: Carol Diaz <carol@acme.example>',
    '',
    'Hi Carol,',
    'Sounds good, I will cut the taxis.',
    '',
    'On Mon, 4 Mar 2024 at 10:02, Carol Diaz <',
    'carol@acme.example> wrote:',
    '',
    '> Hi Ana,',
    '> The Q2 marketing budget is 48,000 EUR. We need to cut travel by 20%.',
    '',
    '-- ',
    'Ana Silva',
    'Head of Marketing',
  ].join('\n');
  assert.deepEqual(unsaid(mail), [
    'Subject: Re: Q2 budget\nFrom: Ana Silva <ana@acme.example>\nTo: Carol Diaz <carol@acme.example>',
    'On Mon, 4 Mar 2024 at 10:02, Carol Diaz <\ncarol@acme.example> wrote:',
    '> Hi Ana,\n> The Q2 marketing budget is 48,000 EUR. We need to cut travel by 20%.',
    '-- \nAna Silva\nHead of Marketing',
  ]);
});

test('an attribution line with the name after the verb, as German Gmail writes it, whole or wrapped', () => {
  assert.deepEqual(
    unsaid(
      'Passt.\n\nAm Di., 12. März 2024 um 09:00 Uhr schrieb Ana Silva <ana@acme.example>:\n> Treffen um 10?',
    ),
    ['Am Di., 12. März 2024 um 09:00 Uhr schrieb Ana Silva <ana@acme.example>:\n> Treffen um 10?'],
  );
  assert.deepEqual(
    unsaid(
      'Passt.\n\nAm Di., 12. März 2024 um 09:00 Uhr schrieb Ana Silva <\nana@acme.example>:\n> Treffen um 10?',
    ),
    ['Am Di., 12. März 2024 um 09:00 Uhr schrieb Ana Silva <\nana@acme.example>:\n> Treffen um 10?'],
  );
});

test('an Outlook reply or a forward: everything from the marker on is the other mail', () => {
  const text = 'Approved.\n\n-----Original Message-----\nFrom: Bob\nSent: Monday\n\nPlease approve the trip.';
  assert.deepEqual(unsaid(text), [
    '-----Original Message-----\nFrom: Bob\nSent: Monday\n\nPlease approve the trip.',
  ]);
  assert.deepEqual(unsaid('FYI\n\n---------- Forwarded message ---------\nThe lab closes at 6.'), [
    '---------- Forwarded message ---------\nThe lab closes at 6.',
  ]);
});

test('what only looks like mail structure is said', () => {
  // Not a header block: the first line is not Subject or From, or the block runs into text.
  assert.deepEqual(unsaid('To: everyone who came, thank you!'), []);
  assert.deepEqual(unsaid('From: Lisbon to Porto by train\nit took three hours'), []);
  // "wrote:" at the end of a line of the speaker's own is theirs.
  assert.deepEqual(unsaid('I know what Carol wrote: the budget is final.'), []);
  assert.deepEqual(unsaid('I think 5 > 3 and that matters.'), []);
  // One header-like line is a chat message; the mail importer writes at least two.
  assert.deepEqual(unsaid('From: Lisbon, finally home'), []);
  assert.deepEqual(unsaid('Subject: I moved to Braga'), []);
  // A sentence of one's own above someone's "wrote:" line is not the first half of a wrapped one.
  assert.deepEqual(unsaid('On Friday I start at Acme.\nCarol wrote:\n> congrats'), [
    'Carol wrote:\n> congrats',
  ]);
  // Chat lines rarely end in a full stop: a line without a date, time or address is not a client's.
  assert.deepEqual(unsaid('On Monday I start at Acme\nCarol wrote:\n> congrats'), [
    'Carol wrote:\n> congrats',
  ]);
  assert.deepEqual(unsaid('On 4 March I start at Acme\nCarol wrote:\n> congrats'), [
    'Carol wrote:\n> congrats',
  ]);
  assert.deepEqual(unsaid('Le Mans was great\nBob wrote:\n> did you go?'), ['Bob wrote:\n> did you go?']);
  // A client's line wrapped inside the name, or before the verb alone, is still one attribution.
  assert.deepEqual(
    unsaid('Yes.\nOn Mon, 4 Mar 2024 at 10:02 Carol\nDiaz <carol@x.example> wrote:\n> Lunch?'),
    ['On Mon, 4 Mar 2024 at 10:02 Carol\nDiaz <carol@x.example> wrote:\n> Lunch?'],
  );
  assert.deepEqual(unsaid('Yes.\nOn Mon, 4 Mar 2024 at 10:02, Carol Diaz\nWrote:\n> Lunch?'), [
    'On Mon, 4 Mar 2024 at 10:02, Carol Diaz\nWrote:\n> Lunch?',
  ]);
  // A client's line wrapped after its date, the name opening the second half, is still one attribution.
  assert.deepEqual(
    unsaid('Yes.\nOn Mon, 4 Mar 2024 at 10:02,\nCarol Diaz <carol@x.example> wrote:\n> Lunch?'),
    ['On Mon, 4 Mar 2024 at 10:02,\nCarol Diaz <carol@x.example> wrote:\n> Lunch?'],
  );
});

test('a signature is what follows "-- "; a bare "--" ends one only in mail', () => {
  assert.deepEqual(unsaid('See you.\n-- \nAna Silva'), ['-- \nAna Silva']);
  assert.deepEqual(unsaid('See you.\r\n-- \r\nAna Silva'), ['-- \r\nAna Silva']);
  // In a chat, "--" is a separator: what follows is the speaker's.
  assert.deepEqual(unsaid('Ok so plan:\n--\nI moved to Braga on Monday.'), []);
  const mail = 'Subject: Trip\nFrom: Ana Silva <ana@x.example>\n\nBooked.\n--\nAna Silva';
  assert.deepEqual(unsaid(mail), ['Subject: Trip\nFrom: Ana Silva <ana@x.example>', '--\nAna Silva']);
});

test('greetings and sign-offs alone are courtesy; sentences that begin like them are not', () => {
  for (const s of [
    'Hi Ana,',
    'Hallo Ana,',
    'Hey there!',
    'Good morning everyone!',
    'Morning all!',
    'Best, Carol',
    'Thanks,',
    'Kind regards',
    'Thanks Bob!',
    'Best regards, Carol',
    'Thanks again,',
    'À bientôt,',
    'Bis bald, Klaus',
    'Yours truly,',
    'Cheers!',
    'Morning Ana!',
    'Love, Mum',
    'Bok Zoë,',
    'Lijep pozdrav, Marko',
    'Cześć Ania!',
    'Querida Inês,',
  ])
    assert.equal(isCourtesy(s), true, s);
  for (const s of [
    "Hi I'm Ana",
    'Hi, I am here',
    'Love it',
    'Thank you for the help',
    'Best day of my life',
    'Morning runs are the best',
    'Hey, the lab closes at 6.',
    // A sign-off word before a name without a comma, or a time of day before more than a name, is a
    // statement that begins like one.
    'Love Lisbon!',
    'Cheers Acme Corp',
    'Morning Standup Moved',
    'Best Buy',
  ])
    assert.equal(isCourtesy(s), false, s);
});

test('greetings and sign-offs in German, Croatian and to a group are courtesy; statements that begin like them are not', () => {
  for (const s of [
    'Team,',
    'Hi all,',
    'Dear tenants,',
    'Dear colleagues,',
    'Dear yogis,',
    'Dear valued customer,',
    'Dragi susjedi,',
    'Hallo zusammen!',
    'Liebe Kolleginnen und Kollegen,',
    'Sehr geehrte Frau Lindqvist,',
    'Sehr geehrte Damen und Herren,',
    'Guten Tag Frau Lindqvist,',
    'Poštovani,',
    'Poštovani gospodine Horvat,',
    'Lijep pozdrav',
    'Mit freundlichen Grüßen',
    'Beste Grüße',
    'Viele Grüße',
    'LG',
    'LG, Maya',
    'Namaste, Yogawerk',
    'Ihr Praxisteam Dr. Novak',
    'Ihr FitInn Team',
    'Euer HR-Team',
  ])
    assert.equal(isCourtesy(s), true, s);
  for (const s of [
    'Team meeting moved to 3pm.',
    'All done!',
    'Your team is great!',
    'The Atlas team shipped it.',
    'The victim',
    'LG TV is broken',
    'Liebe ist alles.',
    'Guten Tag, ich habe eine Frage.',
    "Hi I'm Ana,",
    'Thanks for the lift,',
    // News that opens with a greeting is news.
    'Hi dentist moved to Friday!',
    'Hey Tom flight cancelled!',
    'Hello from the hospital:',
    'Hey baby arrived!',
    'Hello from Lisbon!',
    'Hi mum home at six!',
    'Hey guess what:',
    'Hey dentist moved:',
    'The winning team!',
  ])
    assert.equal(isCourtesy(s), false, s);
});

test("a mail's last line that is only its sender's name, or part of it, is its signature", () => {
  const head = (from: string) => `Subject: Befund\nFrom: ${from}\nTo: Maya <maya@x.example>\n\n`;
  const huber = `${head('Ordination Dr. Markus Huber <o@x.example>')}Guten Tag,\n\nIhr Befund ist da.\n\nOrdination Dr. Huber`;
  assert.deepEqual(unsaid(huber), [
    'Subject: Befund\nFrom: Ordination Dr. Markus Huber <o@x.example>\nTo: Maya <maya@x.example>',
    'Ordination Dr. Huber',
  ]);
  // Above the mail it quotes, the last line of its own words.
  const jonas = `${head('Jonas Berger <j@x.example>')}Team,\n\nLaunch moves.\n\nJonas\n\nOn Tue, Jonas Berger wrote:\n> Atlas goes live.`;
  assert.deepEqual(unsaid(jonas).slice(1), ['Jonas', 'On Tue, Jonas Berger wrote:\n> Atlas goes live.']);
  // Another name, a name in a sentence, or a mail of one line stays said.
  assert.deepEqual(unsaid(`${head('Jonas Berger <j@x.example>')}Launch moves.\n\nPriya`).length, 1);
  assert.deepEqual(unsaid(`${head('Jonas Berger <j@x.example>')}Launch moves.\n\nJonas agrees.`).length, 1);
  assert.deepEqual(unsaid(`${head('Jonas Berger <j@x.example>')}Jonas`).length, 1);
});

test("a mailing's boilerplate is not said; a sentence that only begins like it is", () => {
  for (const s of [
    'Click here to read more.',
    'Unsubscribe anytime.',
    'You can unsubscribe at any time.',
    'Read more…',
    'View this email in your browser',
    'Manage your email preferences',
    "You're receiving this because you signed up at fintech.example.",
    'Forward this newsletter to a friend!',
    'Follow us on Instagram',
    '© 2026 Fintech Weekly. All rights reserved.',
    'Hi Zoë,',
  ])
    assert.equal(isUnsaid(s), true, s);
  for (const s of [
    'This week: stablecoins cross $300bn.',
    'Read more about it in the attached PDF, it explains the boiler repair.',
    'I finally unsubscribed Mum from that newsletter',
    'We should follow up on the lease.',
    'Click was the name of our first cat.',
  ])
    assert.equal(isUnsaid(s), false, s);
});

test("a mail's answered or forwarded mail under its header block, a phone's line and a signature under a sign-off are not said", () => {
  const head = 'Subject: RE: Contract\nFrom: Ana Silva <ana@x.example>\nTo: Klaus <klaus@y.example>\n\n';
  // Outlook's block over the mail it answers, in the body, with no "Original Message" marker.
  const outlook = [
    'Approved. Please send the invoice to finance.',
    '',
    'Kind regards,',
    'Ana Silva',
    'Head of Platform | Acme Corp',
    'M: +351 912 345 678',
    '',
    'From: Klaus Weber <klaus@y.example>',
    'Sent: Tuesday, March 12, 2024 5:00 PM',
    'To: Ana Silva <ana@x.example>',
    'Subject: Contract',
    '',
    'Hi Ana, our daily rate is 1,200 EUR.',
  ].join('\n');
  assert.deepEqual(unsaid(head + outlook).slice(1), [
    'Ana Silva\nHead of Platform | Acme Corp\nM: +351 912 345 678',
    'From: Klaus Weber <klaus@y.example>\nSent: Tuesday, March 12, 2024 5:00 PM\nTo: Ana Silva <ana@x.example>\nSubject: Contract\n\nHi Ana, our daily rate is 1,200 EUR.',
  ]);
  // A mail forwarded as an attachment, as postal-mime writes it into the text.
  const forwarded = [
    'See below.',
    '',
    '------------------------------------------',
    'From:    Clinica Sorriso <info@sorriso.example>',
    'Subject: Dentist appointment',
    'Date:    3/8/2024, 10:00:00',
    '------------------------------------------',
    '',
    'Your appointment with Dr. Ramos is on 20 March.',
  ].join('\n');
  assert.deepEqual(unsaid(head + forwarded).slice(1), [forwarded.slice(forwarded.indexOf('-'))]);
  assert.deepEqual(unsaid(`${head}Yes, I sold my bike.\n\nSent from my iPhone`).slice(1), [
    'Sent from my iPhone',
  ]);
  // Under "Thanks," a sentence of the mail's own is said: only a signature's short lines are not (the
  // sender's name closing it is one).
  const said = `${head}Thanks,\nI will call you tomorrow about the contract.\nAna`;
  assert.deepEqual(unsaid(said).slice(1), ['Ana']);
  // Nor are more lines under it than a signature has, however short.
  const list = `${head}Cheers,\n${['Milk', 'Eggs', 'Bread', 'Oats', 'Rice', 'Tea', 'Jam'].join('\n')}`;
  assert.deepEqual(unsaid(list).slice(1), []);
  // Not in a chat: a "From:" line there is a message's own words, and so is "Sent from my iPhone".
  assert.deepEqual(unsaid('From: Lisbon, finally home\nSent: the parcel, yesterday\nSubject: moving'), []);
  assert.deepEqual(unsaid('Sent from my iPhone'), []);
});

test("someone else's words: a quote opens at its attribution, an Outlook thread at the nearest mail's From line", () => {
  const gmail =
    'Sounds good.\n\nOn Mon, 4 Mar 2024, Carol Diaz <carol@x> wrote:\n\n> Hi Ana,\n>\n> No satay, please.\n\n-- \nAna';
  const [quote] = quotes(gmail);
  assert.equal(quotes(gmail).length, 1, 'the signature is not a quote');
  assert.equal(
    gmail.slice(quote!.start, quote!.end),
    gmail.slice(gmail.indexOf('On Mon'), gmail.indexOf('please.') + 7),
  );
  assert.equal(quoteOpening(gmail, quote!, gmail.indexOf('> No satay')), gmail.indexOf('On Mon'));
  const outlook = [
    'Approved.',
    '',
    '-----Original Message-----',
    'From: Bob',
    'Sent: Monday',
    'Subject: Trip',
    '',
    'Please approve it.',
    '',
    'From: Carol',
    'Sent: Sunday',
    'Subject: Trip',
    '',
    'The trip is to Porto.',
  ].join('\n');
  const [mail] = quotes(outlook);
  assert.equal(quoteOpening(outlook, mail!, outlook.indexOf('Please')), outlook.indexOf('From: Bob'));
  assert.equal(quoteOpening(outlook, mail!, outlook.indexOf('The trip')), outlook.indexOf('From: Carol'));
  assert.deepEqual(
    quotes('I live in Porto.\n\nOn Friday I start at Acme.'),
    [],
    'no quote in words of my own',
  );
});

test("a chat's line that hands over to someone else's words: the rest of the message is theirs", () => {
  assert.deepEqual(unsaid('forwarding from ines:\nI live in Porto now and work at Farfetch.'), [
    'forwarding from ines:\nI live in Porto now and work at Farfetch.',
  ]);
  for (const opening of [
    'Fwd from Tom:',
    'what mum texted me:',
    'ines said:',
    'message from Tom:',
    'copying Ana’s email:',
  ])
    assert.equal(unsaid(`${opening}\nI moved to Braga!\nLove, Mum`).length, 1, opening);
  // The speaker's own lead-ins and words, and such a line with nothing under it.
  for (const text of [
    'Update:\nI moved to Porto',
    'I told him:\nI live in Porto now',
    'Things to remember:\nbuy milk',
    'ines said:',
  ])
    assert.deepEqual(unsaid(text), [], text);
});

test("the speaker's own hand-over lines are theirs, and the speaker's words after a forward are again", () => {
  for (const text of [
    'So I said:\nI live in Porto now',
    "Here's what I posted:\nI live in Porto now",
    'Forward planning:\nbudget',
  ])
    assert.deepEqual(unsaid(text), [], text);
  const text = 'Forwarding from ines:\nI live in Porto now.\n\nAnyway, I work at Farfetch now.';
  assert.deepEqual(unsaid(text), ['Forwarding from ines:\nI live in Porto now.']);
});
