import { wordGroups } from './word-groups.ts';

/**
 * Words that name the same kin: "What's my mom's name?" asks of "My mother Ana is a teacher.", which no
 * stemmer brings to "mom", and the default embedder cannot find it either: glove-sif puts "mom" and
 * "dad" near most everyday talk (docs/decisions/retrieval.md, "A word near everything"). Each group is
 * one term's words, searched and met as a verb's forms are (verb-forms.ts). Only words that name nothing
 * else: not "ma", "pa", "pop" or "nan".
 */
const kin = wordGroups([
  'mom mum mother mommy mummy mama momma',
  'dad father daddy papa',
  'grandma grandmother granny nana',
  'grandpa grandfather granddad grandad gramps',
]);

/** Every word of the kin a query term names, the term included; empty for any other word. */
export const kinWords = kin.words;

/** The words a query term is searched by besides itself when it names kin. */
export const searchedKinWords = kin.others;
