/** What a route declares about itself in its `handle` (read by the layout and, later, the prerenderer). */
export interface RouteHandle {
  /** Page title; the layout appends the brand name. Omitted on the home page. */
  title?: string;
}

export function isRouteHandle(handle: unknown): handle is RouteHandle {
  return typeof handle === 'object' && handle !== null;
}

export function formatDocumentTitle(title: string | undefined, brandName: string): string {
  return title ? `${title} | ${brandName}` : `${brandName} | Fast, private VPN`;
}
