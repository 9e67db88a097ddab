import { slugPattern } from '../engine/contract/slug-pattern.ts';
import { slugLike } from './slug.ts';

/**
 * A Brain's short id, as the API takes it (a Slug, engine/contract/common.ts): 1 to 128 ASCII letters,
 * digits, ".", "_" or "-", starting with a letter or digit. The form's `pattern` is this rule, and
 * `brainIdProblem` says in the form's words what is wrong with an id it refuses, with one that would do.
 */
export const brainIdPattern = slugPattern;

const whole = new RegExp(`^${brainIdPattern}$`, 'u');

/** The id written as one the rule takes: accents off, every run of other signs (a space) a dash. */
export const brainIdLike = (id: string): string => slugLike(id, 128);

/** Why ID cannot be a Brain's short id, or null when it can (an empty one is the field's `required`). */
export function brainIdProblem(id: string): string | null {
  if (id === '' || whole.test(id)) return null;
  const like = brainIdLike(id);
  const instead = like && like !== id ? ` For example “${like}”.` : '';
  if (id.length > 128)
    return `A short id is at most 128 characters; this one has ${id.length.toLocaleString()}.${instead}`;
  if (/[^A-Za-z0-9._-]/.test(id))
    return (
      `“${id}” cannot be a short id: it may hold only letters a–z without accents, digits, dots (.), dashes (-) and ` +
      `underscores (_), with no spaces or other signs, since it is part of the Brain’s addresses.${instead}`
    );
  return `A short id starts with a letter or a digit, not “${id[0]}”.${instead}`;
}

/**
 * The short id a Brain's name suggests, as the form fills it in while the name is typed: lower case,
 * accents off, an apostrophe dropped rather than made a dash ("Zoë’s memory": "zoes-memory").
 */
export const brainIdFromName = (name: string): string =>
  brainIdLike(name.trim().toLowerCase().replace(/['’]/g, ''));
