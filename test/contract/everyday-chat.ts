/**
 * A chat of everyday talk between a person ("user") and an assistant, one thread over three days, as
 * the desktop app records it: mixed topics, small talk, the assistant's questions, and a few facts said
 * once (the favourite colour, the job, a holiday told only in reply to a question). Contexts over it are
 * judged as the person would judge them: what answers is cited, what merely sits next to it is not.
 */
export interface ChatLine {
  speaker: 'user' | 'assistant';
  text: string;
}

export const everydayChat: readonly ChatLine[] = [
  { speaker: 'user', text: 'Good morning! I barely slept, the neighbours had a party until 3am.' },
  { speaker: 'assistant', text: 'Oh no, that sounds exhausting. Do you have a busy day ahead?' },
  {
    speaker: 'user',
    text: 'Not too bad. I need to buy groceries and call the plumber about the kitchen sink.',
  },
  { speaker: 'assistant', text: 'Would you like me to add those to your to-do list?' },
  { speaker: 'user', text: 'Yes please, and remind me to water the tomatoes on the balcony.' },
  { speaker: 'assistant', text: 'Done. Groceries, plumber, and the tomatoes are on your list for today.' },
  { speaker: 'user', text: 'Thanks. What should I cook tonight? Something quick.' },
  {
    speaker: 'assistant',
    text: 'How about a vegetable stir-fry with noodles? It takes about twenty minutes.',
  },
  { speaker: 'user', text: 'That works, I still have half a bag of noodles and some peppers.' },
  { speaker: 'assistant', text: 'Perfect. Add garlic and a splash of soy sauce at the end.' },
  { speaker: 'user', text: 'By the way, I started reading a novel about a lighthouse keeper in Scotland.' },
  { speaker: 'assistant', text: 'That sounds atmospheric. Are you enjoying it so far?' },
  {
    speaker: 'user',
    text: "It's slow, but the writing is beautiful. I read a chapter every night before bed.",
  },
  { speaker: 'assistant', text: 'A chapter a night is a nice habit. Is there anything else on your mind?' },
  {
    speaker: 'user',
    text: 'My favourite colour is green, so keep that in mind if you ever suggest gifts or paint.',
  },
  { speaker: 'assistant', text: 'Noted! What do you do for work, by the way?' },
  { speaker: 'user', text: "I work as a nurse at the children's hospital, mostly night shifts." },
  { speaker: 'assistant', text: 'That must be demanding. How many nights do you work in a row?' },
  { speaker: 'user', text: 'Usually three, then I get four days off to recover.' },
  { speaker: 'assistant', text: 'Make sure you rest properly on those days off.' },
  { speaker: 'user', text: 'I try. Yoga on Sunday mornings helps a lot.' },
  { speaker: 'assistant', text: 'Yoga is great for recovery. Do you go to a class or practise at home?' },
  { speaker: 'user', text: 'A small class at the community centre, the teacher is really patient.' },
  { speaker: 'assistant', text: 'That sounds lovely. Anything planned for the evening?' },
  { speaker: 'user', text: 'Just a phone call with my mum, she worries about my shifts.' },
  { speaker: 'assistant', text: "It's kind of her to check in. Say hello from me!" },
  { speaker: 'user', text: 'Ha, I will. Good night!' },
  { speaker: 'assistant', text: 'Good night, sleep well.' },
  { speaker: 'user', text: 'Morning. The plumber is coming at 10, fingers crossed.' },
  { speaker: 'assistant', text: 'Fingers crossed! Did you manage to get the groceries yesterday?' },
  { speaker: 'user', text: 'Yes, and I bought oat milk by mistake instead of the usual.' },
  { speaker: 'assistant', text: 'Oat milk is nice in coffee. Did you try it?' },
  { speaker: 'user', text: "It's actually not bad. I might switch for good." },
  { speaker: 'assistant', text: 'Where did you go on holiday last summer?' },
  { speaker: 'user', text: 'Lisbon, with my sister. We ate custard tarts every single day.' },
  { speaker: 'assistant', text: 'That sounds wonderful. Would you go back?' },
  { speaker: 'user', text: 'Definitely, maybe in spring when it is less crowded.' },
  { speaker: 'assistant', text: 'Spring is a good time. Shall I note it as a trip idea?' },
  { speaker: 'user', text: 'Sure. Also, the plumber says the pipe under the sink is cracked.' },
  { speaker: 'assistant', text: 'Is he able to replace it today?' },
  { speaker: 'user', text: 'He has to order the part, so next Thursday.' },
  { speaker: 'assistant', text: "I'll remind you on Wednesday evening that he is coming." },
  { speaker: 'user', text: 'Thank you. I watched a documentary about octopuses last night.' },
  { speaker: 'assistant', text: 'They are fascinating animals. What did you learn?' },
  { speaker: 'user', text: 'That they can taste with their arms, which is wild.' },
  { speaker: 'assistant', text: 'It really is. Any other plans for the weekend?' },
  { speaker: 'user', text: 'My friend Tomás is visiting on Saturday, we might go hiking.' },
  { speaker: 'assistant', text: 'Do you have a trail in mind?' },
  { speaker: 'user', text: 'The coastal path near the old fort, about twelve kilometres.' },
  { speaker: 'assistant', text: 'Take plenty of water and sunscreen, the forecast says it will be hot.' },
  { speaker: 'user', text: 'Good point. Can you remind me to charge my phone on Friday night?' },
  { speaker: 'assistant', text: "Sure, I'll remind you on Friday at 9pm." },
  { speaker: 'user', text: "I'm thinking about getting a cat. Is that a silly idea with my shifts?" },
  { speaker: 'assistant', text: 'Not silly at all. Cats are fairly independent. Have you had one before?' },
  { speaker: 'user', text: 'When I was a kid we had a grey cat called Pepper.' },
  { speaker: 'assistant', text: 'Pepper is a great name. Would you adopt from a shelter?' },
  { speaker: 'user', text: 'Yes, there is one near the hospital I keep walking past.' },
  { speaker: 'assistant', text: 'Maybe visit them on one of your days off and see how it feels.' },
  { speaker: 'user', text: "Good idea, I'll go on Tuesday. Anyway, I have to get ready for work now." },
  { speaker: 'assistant', text: 'Have a calm shift tonight!' },
];

/** The index of the only line that says the favourite colour. */
export const colourLine = everydayChat.findIndex((l) => l.text.startsWith('My favourite colour'));
/** The index of the reply that names the holiday, found through the question before it. */
export const holidayLine = everydayChat.findIndex((l) => l.text.startsWith('Lisbon, with my sister'));
/** The index of the line that says what the novel is about. */
export const novelLine = everydayChat.findIndex((l) => l.text.includes('a novel about'));
