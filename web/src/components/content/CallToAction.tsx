import { useLingui } from '@lingui/react';
import { Link } from 'react-router-dom';
import { useAuth } from '../../features/auth/auth-context';
import { TRIAL_SIGN_IN_PATH } from '../../features/pricing/trial-request';
import { TrialClaim } from './TrialClaim';

interface CallToActionProps {
  title?: string;
  text?: string;
}

/**
 * The closing band of a content page: start a free trial (signed out: sign in, then the trial is claimed) or go to your
 * accounts. `title` and `text` come translated; `text` (which may speak of the trial) and the trial button give way to
 * a plain sign-up when the store has no trial to promise (TrialClaim).
 */
export function CallToAction({ title, text }: CallToActionProps) {
  const { user } = useAuth();
  const { _ } = useLingui();
  return (
    <section className="bg-indigo-950 text-white">
      <div className="mx-auto max-w-4xl px-4 py-14 text-center sm:px-6">
        <h2 className="text-3xl font-bold tracking-tight">{title ?? _('cta.title')}</h2>
        <p className="mx-auto mt-4 max-w-2xl text-lg text-indigo-100">
          <TrialClaim trial={text ?? _('cta.text')} otherwise={_('cta.textNoTrial')} />
        </p>
        <div className="mt-8 flex flex-wrap justify-center gap-4">
          <Link
            to={user ? '/dashboard' : TRIAL_SIGN_IN_PATH}
            className="rounded-lg bg-indigo-500 px-6 py-3 font-semibold text-white shadow hover:bg-indigo-400 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
          >
            {user ? _('cta.goToAccounts') : <TrialClaim trial={_('cta.startTrial')} otherwise={_('cta.getStarted')} />}
          </Link>
          <Link
            to="/pricing"
            className="rounded-lg px-6 py-3 font-semibold text-white ring-1 ring-white/40 hover:bg-white/10 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
          >
            {_('cta.seePricing')}
          </Link>
        </div>
      </div>
    </section>
  );
}
