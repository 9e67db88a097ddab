import { useState } from 'react';

/**
 * A filter form shows what the address says: when the search changes (Back, forward), `reset` sets the
 * fields from it, during render rather than by remounting the form, so the field or button in use keeps
 * its focus when the person applies a search.
 */
export function useFollowSearch(search: string, reset: () => void): void {
  const [shown, setShown] = useState(search);
  if (shown !== search) {
    setShown(search);
    reset();
  }
}
