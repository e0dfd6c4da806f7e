import { useLingui } from '@lingui/react';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { ROLES, STAFF_ROLES, type Role } from '../../../../../shared/auth.js';
import type { AdminUser } from '../../../../../shared/users.js';
import { adminApi } from '../../../api/admin-endpoints';
import { Loading } from '../../../components/Loading';
import { useFormat } from '../../../i18n/format';
import { useAuth } from '../../auth/auth-context';
import { useToast } from '../../toast/toast-context';
import { AlertBox } from '../AlertBox';
import { buttonClass, cardClass, inputClass } from '../admin-ui';
import { useCellLabels } from '../AdminTable';
import { ROLE_LABEL_IDS, roleChangeErrorId } from './role-labels';

/** What each staff role may do, in the order the roles are offered. */
const ROLE_SUMMARY_IDS: Record<(typeof STAFF_ROLES)[number], string> = {
  owner: 'admin.staff.summary.owner',
  admin: 'admin.staff.summary.admin',
  support: 'admin.staff.summary.support',
  finance: 'admin.staff.summary.finance',
};

/**
 * The owner's Staff section: who works for the store and with which role, and giving someone a role by e-mail
 * (they open the admin at their next sign-in). Choosing "customer" takes the role away. The server keeps the
 * last owner and refuses a change of one's own role.
 */
export function StaffTab({ refreshKey }: { refreshKey: number }) {
  const { _ } = useLingui();
  const tableRef = useCellLabels();
  const format = useFormat();
  const toast = useToast();
  const { user: me } = useAuth();
  const id = useId();
  const [staff, setStaff] = useState<AdminUser[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState<string | null>(null);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('support');

  useEffect(() => {
    const controller = new AbortController();
    setFailed(false);
    adminApi.staff.list(controller.signal).then(setStaff, () => !controller.signal.aborted && setFailed(true));
    return () => controller.abort();
  }, [refreshKey]);

  async function save(target: string, nextRole: Role): Promise<boolean> {
    setBusy(target);
    try {
      const updated = await adminApi.staff.setRole({ email: target, role: nextRole });
      setStaff((list) => {
        const others = (list ?? []).filter((member) => member.id !== updated.id);
        return updated.role === 'user' ? others : [...others, updated].sort((a, b) => (a.email ?? '').localeCompare(b.email ?? ''));
      });
      toast.success(_('admin.staff.saved'));
      return true;
    } catch (error) {
      toast.error(_(roleChangeErrorId(error, 'admin.staff.failed')));
      return false;
    } finally {
      setBusy(null);
    }
  }

  async function onAdd(event: FormEvent) {
    event.preventDefault();
    if (await save(email.trim(), role)) setEmail('');
  }

  if (failed) return <AlertBox>{_('admin.staff.loadFailed')}</AlertBox>;
  if (!staff) return <Loading />;

  return (
    <div className="space-y-6">
      <section className={`${cardClass} p-5`}>
        <h2 className="text-lg font-semibold text-slate-900">{_('admin.staff.rolesTitle')}</h2>
        <dl className="mt-3 grid gap-2 text-sm sm:grid-cols-2">
          {STAFF_ROLES.map((staffRole) => (
            <div key={staffRole}>
              <dt className="font-semibold text-slate-800">{_(ROLE_LABEL_IDS[staffRole])}</dt>
              <dd className="text-slate-600">{_(ROLE_SUMMARY_IDS[staffRole])}</dd>
            </div>
          ))}
        </dl>
      </section>

      <div className="overflow-x-auto rounded-xl bg-white shadow-sm ring-1 ring-slate-200">
        <table ref={tableRef} className="admin-table min-w-full divide-y divide-slate-200 text-start text-sm">
          <caption className="sr-only">{_('admin.staff.caption')}</caption>
          <thead className="bg-slate-50 text-xs font-semibold tracking-wide text-slate-600 uppercase">
            <tr>
              <th scope="col" className="px-4 py-3 text-start">
                {_('admin.staff.column.email')}
              </th>
              <th scope="col" className="px-4 py-3 text-start">
                {_('admin.staff.column.role')}
              </th>
              <th scope="col" className="px-4 py-3 text-start">
                {_('admin.staff.column.since')}
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {staff.map((member) => (
              <tr key={member.id}>
                <td className="px-4 py-3 font-medium break-all text-slate-900">
                  <Link to={`/admin/users/${encodeURIComponent(member.id)}`} className="text-indigo-700 hover:underline">
                    {member.email}
                  </Link>
                  {member.id === me?.id && <span className="ms-2 text-slate-500">{_('admin.staff.you')}</span>}
                </td>
                <td className="px-4 py-3">
                  <select
                    aria-label={_('admin.staff.roleFor', { email: member.email ?? '' })}
                    value={member.role}
                    disabled={busy !== null || member.id === me?.id}
                    onChange={(event) => void save(member.email ?? '', event.target.value as Role)}
                    className="rounded-lg border border-slate-300 bg-white px-2 py-1.5 text-sm focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/40 focus:outline-none disabled:opacity-60"
                  >
                    {ROLES.map((value) => (
                      <option key={value} value={value}>
                        {_(value === 'user' ? 'admin.staff.noRole' : ROLE_LABEL_IDS[value])}
                      </option>
                    ))}
                  </select>
                </td>
                <td className="px-4 py-3 whitespace-nowrap text-slate-700">{format.date(member.createdAt)}</td>
              </tr>
            ))}
            {staff.length === 0 && (
              <tr>
                <td colSpan={3} className="px-4 py-8 text-center text-slate-500">
                  {_('admin.staff.empty')}
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>

      <form onSubmit={(event) => void onAdd(event)} className={`${cardClass} flex flex-wrap items-end gap-4 p-5`}>
        <h2 className="w-full text-lg font-semibold text-slate-900">{_('admin.staff.addTitle')}</h2>
        <div className="w-full max-w-sm">
          <label htmlFor={`${id}-email`} className="block text-sm font-medium text-slate-700">
            {_('admin.staff.email')}
          </label>
          <input id={`${id}-email`} type="email" required value={email} onChange={(event) => setEmail(event.target.value)} className={inputClass} />
        </div>
        <div>
          <label htmlFor={`${id}-role`} className="block text-sm font-medium text-slate-700">
            {_('admin.staff.role')}
          </label>
          <select id={`${id}-role`} value={role} onChange={(event) => setRole(event.target.value as Role)} className={inputClass}>
            {STAFF_ROLES.map((value) => (
              <option key={value} value={value}>
                {_(ROLE_LABEL_IDS[value])}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" disabled={busy !== null} className={buttonClass.primary}>
          {_('admin.staff.add')}
        </button>
        <p className="w-full text-sm text-slate-600">{_('admin.staff.addHint')}</p>
      </form>
    </div>
  );
}
