import { useLingui } from '@lingui/react';
import { Link } from 'react-router-dom';
import { useLocale } from '../i18n/locale-context';

/**
 * "← Back to the dashboard" above a page of the customer's own (wallet, referrals). The arrow points the
 * way back in the page's direction: left on a left-to-right page, right on a right-to-left one.
 */
export function BackToDashboard() {
  const { _ } = useLingui();
  const { dir } = useLocale();
  return (
    <p className="text-sm">
      <Link to="/dashboard" className="font-medium text-indigo-700 underline">
        {dir === 'rtl' ? '→' : '←'} {_('account.referrals.back')}
      </Link>
    </p>
  );
}
