import { useEffect, useState } from 'react';
import { onAdminChange } from '../../api/admin-changes';

/** A number that goes up after every admin save (admin-changes.ts): add it to a `refreshKey` to read again after one. */
export function useAdminChanges(): number {
  const [changes, setChanges] = useState(0);
  useEffect(() => onAdminChange(() => setChanges((count) => count + 1)), []);
  return changes;
}
