import { useEffect } from 'react';
import { useMatches } from 'react-router-dom';
import { useConfig } from '../features/config/config-context';
import { formatDocumentTitle, isRouteHandle } from './route-handle';

/** Sets document.title from the deepest matched route's `handle.title`. */
export function useDocumentTitle(): void {
  const matches = useMatches();
  const { brandName } = useConfig();
  const title = matches
    .map((match) => (isRouteHandle(match.handle) ? match.handle.title : undefined))
    .findLast((value) => value !== undefined);

  useEffect(() => {
    document.title = formatDocumentTitle(title, brandName);
  }, [title, brandName]);
}
