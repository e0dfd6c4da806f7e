import { useLingui } from '@lingui/react';
import { auditChanges, auditFacts } from './audit-labels';

/** One entry's details: what changed (`field: before → after`), then its other facts (route, device, amounts…). */
export function AuditEntryDetails({ details, ip }: { details: Record<string, unknown>; ip?: string | null }) {
  const { _ } = useLingui();
  const changes = auditChanges(details);
  const facts = auditFacts(details);
  return (
    <ul className="space-y-0.5 text-xs wrap-anywhere text-slate-700">
      {changes.map((change) => (
        <li key={`change-${change.field}`} data-testid="audit-change">
          <span className="text-slate-500">{change.field}: </span>
          <span className="text-red-700 line-through decoration-red-300">{change.before}</span>
          <span aria-label={_('admin.audit.changedTo')}> → </span>
          <span className="font-medium text-green-800">{change.after}</span>
        </li>
      ))}
      {ip && (
        <li>
          <span className="text-slate-500">{_('admin.audit.ip')}: </span>
          {ip}
        </li>
      )}
      {facts.map(([key, value]) => (
        <li key={key}>
          <span className="text-slate-500">{key}: </span>
          {value}
        </li>
      ))}
    </ul>
  );
}
