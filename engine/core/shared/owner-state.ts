import { OwnerState } from '../../contract/index.ts';

/** Whether an owner filter names a state (`self`, `other`, `unresolved`) rather than a person. */
export const isOwnerState = (owner: string): boolean => OwnerState.safeParse(owner).success;
