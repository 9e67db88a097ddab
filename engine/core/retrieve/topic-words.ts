/**
 * Topics an agent asks about by their name while a person speaks of them by their members: "dietary
 * restrictions" or "allergies" against "I'm vegetarian", "I'm seriously allergic to peanuts", "I had
 * shellfish once and ended up in the ER". No query word is in those Records, and a word embedding finds
 * only some of them; what is missed can be what matters most (an allergy). A short, closed list: each
 * topic's name words, and the words its Records use. Folded as query terms are (query-terms.ts).
 */
const topics: readonly { name: string; says: readonly string[]; members: readonly string[] }[] = [
  {
    name: 'diet',
    says: [
      'diet',
      'diets',
      'dietary',
      'food',
      'foods',
      'eat',
      'eats',
      'eating',
      'meal',
      'meals',
      'cook',
      'cooks',
      'cooking',
      'bake',
      'baking',
      'recipe',
      'recipes',
      'menu',
    ],
    members: [
      'vegetarian',
      'vegan',
      'pescatarian',
      'kosher',
      'halal',
      'keto',
      'meat',
      'gluten',
      'lactose',
      'dairy',
      'allergic',
      'allergy',
      'intolerant',
    ],
  },
  {
    name: 'allergies',
    says: ['allergy', 'allergies', 'allergic', 'intolerance', 'intolerances', 'intolerant', 'anaphylaxis'],
    members: [
      'allergic',
      'allergy',
      'allergies',
      'intolerant',
      'intolerance',
      'epipen',
      'anaphylaxis',
      'anaphylactic',
      'hives',
      'peanut',
      'peanuts',
      'nuts',
      'shellfish',
      'gluten',
      'lactose',
      'celiac',
      'coeliac',
    ],
  },
  {
    name: 'health',
    says: ['health', 'medical', 'medication', 'medications', 'medicine', 'illness', 'conditions'],
    members: [
      'doctor',
      'diagnosed',
      'medication',
      'meds',
      'pills',
      'prescription',
      'surgery',
      'hospital',
      'therapy',
      'therapist',
      'allergic',
      'chronic',
    ],
  },
  {
    name: 'family',
    says: ['family', 'families', 'relatives'],
    members: [
      'mom',
      'mum',
      'mother',
      'dad',
      'father',
      'parents',
      'sister',
      'brother',
      'siblings',
      'son',
      'daughter',
      'kids',
      'children',
      'wife',
      'husband',
      'partner',
      'grandma',
      'grandmother',
      'grandpa',
      'grandfather',
      'aunt',
      'uncle',
      'cousin',
    ],
  },
  {
    // "Does she have siblings?" against "My sister Marta is a teacher.": the kin word a question uses is
    // seldom the one its answer does, and "sibling" meets "sister" at a cosine under the semantic floor.
    name: 'siblings',
    says: ['sibling', 'siblings'],
    members: ['sister', 'sisters', 'brother', 'brothers', 'twin'],
  },
  {
    name: 'parents',
    says: ['parent', 'parents'],
    members: ['mom', 'mum', 'mother', 'dad', 'father', 'stepmother', 'stepfather'],
  },
  {
    name: 'children',
    says: ['child', 'children', 'kid', 'kids'],
    members: ['son', 'sons', 'daughter', 'daughters', 'baby', 'kid', 'kids', 'stepson', 'stepdaughter'],
  },
  {
    // "Did Petra have her baby?" against "He's here!!! Jakov was born at 4:12 this morning" (use9 H1).
    name: 'baby',
    says: ['baby', 'babies', 'pregnant', 'pregnancy'],
    members: ['born', 'birth', 'newborn', 'pregnant', 'pregnancy', 'labour', 'labor'],
  },
  {
    // "who is my partner?" against "my gf is Marta", "I'm seeing Carla now".
    name: 'partner',
    says: ['partner', 'partners', 'spouse', 'significant', 'girlfriend', 'boyfriend', 'wife', 'husband'],
    members: [
      'partner',
      'girlfriend',
      'boyfriend',
      'gf',
      'bf',
      'wife',
      'husband',
      'fiancé',
      'fiancée',
      'fiance',
      'fiancee',
      'dating',
      'seeing',
      'married',
      'engaged',
      'spouse',
    ],
  },
  {
    // "When is my wedding?" against "We are getting married in Sevilla on 20 September".
    name: 'wedding',
    says: ['wedding', 'weddings', 'marriage', 'marry', 'married'],
    members: [
      'wedding',
      'married',
      'marry',
      'marrying',
      'engaged',
      'engagement',
      'proposed',
      'fiancé',
      'fiancée',
    ],
  },
  {
    // "When is my birthday?" against "my bday is 4 march".
    name: 'birthday',
    // Not "born": "Where was Ana born?" asks a place, and a birthday's facts ranked above the note of it.
    says: ['birthday', 'birthdays', 'bday'],
    members: ['birthday', 'bday'],
  },
  {
    // "what's Ana's phone?" against "My new number is 912 …", a contact's "tel: …".
    name: 'phone',
    says: ['phone', 'mobile', 'cell', 'cellphone', 'telephone'],
    members: ['number', 'phone', 'mobile', 'cell', 'tel', 'telephone', 'whatsapp'],
  },
  {
    name: 'pets',
    says: ['pet', 'pets', 'animals'],
    members: ['dog', 'dogs', 'cat', 'cats', 'puppy', 'kitten', 'hamster', 'parrot', 'rabbit', 'vet'],
  },
];

/** The topics the query's terms name, each with the members the query does not already say. */
export function topicsOf(terms: readonly string[]): { name: string; members: string[] }[] {
  const said = new Set(terms);
  return topics
    .filter((t) => t.says.some((w) => said.has(w)))
    .map((t) => ({ name: t.name, members: t.members.filter((m) => !said.has(m)) }))
    .filter((t) => t.members.length > 0);
}
