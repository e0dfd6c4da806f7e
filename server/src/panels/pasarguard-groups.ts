import { PanelError } from './panel-driver.js';
import { expectJsonObject, failureFor } from './panel-http.js';
import type { PanelSession } from './panel-session.js';

/** A PasarGuard group (its "services"); `disabled` is null when this admin may only read names. */
export interface PasarguardGroup {
  id: number;
  name: string;
  disabled: boolean | null;
}

/** The connection's `serviceId`: group ids separated by commas ('' = none chosen). Null when malformed. */
export function parseGroupIds(serviceId: string): number[] | null {
  const parts = serviceId
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  if (!parts.every((part) => /^\d+$/.test(part))) return null;
  return [...new Set(parts.map(Number))];
}

export function requireGroupIds(serviceId: string): number[] {
  const ids = parseGroupIds(serviceId);
  if (!ids || ids.length === 0) {
    throw new PanelError('rejected', `The service ID must be one or more PasarGuard group ids, such as 1 or 1,2 (got "${serviceId}")`);
  }
  return ids;
}

function toGroups(items: unknown, withState: boolean): PasarguardGroup[] {
  if (!Array.isArray(items)) throw new PanelError('invalid_response', 'The panel sent a group list without groups');
  return items.map((item: { id?: unknown; name?: unknown; is_disabled?: unknown }) => ({
    id: Number(item.id),
    name: String(item.name ?? item.id),
    disabled: withState ? item.is_disabled === true : null,
  }));
}

/**
 * The panel's groups: `GET /api/groups` (needs `groups.read`, gives `is_disabled`), else the names-only
 * `GET /api/groups/simple?all=true` (`groups.read_simple`, what the default "operator" role has).
 * Null when this admin may read neither (403 "Permission denied: groups.read…").
 */
export async function readGroups(session: PanelSession): Promise<PasarguardGroup[] | null> {
  const full = await session.request('/api/groups', { method: 'GET' });
  if (full.status === 200) return toGroups(expectJsonObject(full, 'Listing groups').groups, true);
  if (full.status !== 403) throw failureFor(full, 'Listing groups');
  const simple = await session.request('/api/groups/simple?all=true', { method: 'GET' });
  if (simple.status === 200) return toGroups(expectJsonObject(simple, 'Listing groups').groups, false);
  if (simple.status === 403) return null;
  throw failureFor(simple, 'Listing groups');
}

/**
 * Why users could not be provisioned in `ids`, or null. The panel answers an unknown group with a 404
 * "Group not found" that does not say which, and silently accepts a disabled one (its users then get
 * no inbounds, so no configuration at all).
 */
export function groupProblem(groups: PasarguardGroup[], ids: number[]): string | null {
  const missing = ids.filter((id) => !groups.some((group) => group.id === id));
  if (missing.length > 0) {
    return `The panel has no group ${missing.join(', ')} (or this panel admin may not see it); check the server's service ID`;
  }
  const disabled = groups.filter((group) => ids.includes(group.id) && group.disabled === true);
  if (disabled.length > 0) {
    return `The panel's group ${disabled.map((group) => `${group.id} (${group.name})`).join(', ')} is disabled: its users would get no configuration`;
  }
  return null;
}
