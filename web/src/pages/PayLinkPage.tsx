import { useLingui } from '@lingui/react';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { ERR } from '../../../shared/errors.js';
import { isApiError } from '../api';
import { BUTTON } from '../features/accounts/button-styles';
import { useAuth } from '../features/auth/auth-context';
import { checkoutPathAfterPayLink, signInWithPayLink } from '../features/auth/pay-link';

type Outcome = 'working' | 'refused' | 'failed';

/** A link refused for good: used, expired, unknown (401), or no token at all (400). */
const isRefusal = (error: unknown) => isApiError(error) && (error.status === 401 || error.code === ERR.validation_failed);

/**
 * A payment link from the Telegram bot (`/pay/<token>`): signs in the customer it was made for (whoever was signed in
 * here before) and opens the site's own checkout for the plan, or for the renewal of their account, on the dashboard.
 * A link used, expired or unknown says so, with the way to sign in by e-mail.
 */
export default function PayLinkPage() {
  const { _ } = useLingui();
  const { token = '' } = useParams();
  const { loading, setUser } = useAuth();
  const navigate = useNavigate();
  const [outcome, setOutcome] = useState<Outcome>('working');

  useEffect(() => {
    // After the start-up session check, so its answer (who was signed in before) cannot come after this one.
    if (loading || outcome !== 'working') return;
    let current = true;
    signInWithPayLink(token).then(
      (answer) => {
        if (!current) return;
        setUser(answer.user);
        void navigate(checkoutPathAfterPayLink(answer), { replace: true });
      },
      (error: unknown) => {
        if (current) setOutcome(isRefusal(error) ? 'refused' : 'failed');
      },
    );
    return () => {
      current = false;
    };
  }, [loading, outcome, token, setUser, navigate]);

  return (
    <div className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
      {outcome === 'working' && (
        <div role="status" className="flex items-center justify-center gap-3 text-slate-600">
          <span aria-hidden="true" className="size-5 animate-spin rounded-full border-2 border-indigo-200 border-t-indigo-600" />
          <span>{_('login.payLink.signingIn')}</span>
        </div>
      )}
      {outcome !== 'working' && (
        <>
          <p role="alert" className="text-lg text-slate-800">
            {_(outcome === 'refused' ? 'login.payLink.refused' : 'login.payLink.failed')}
          </p>
          <div className="mt-8 flex flex-wrap justify-center gap-3">
            {outcome === 'failed' && (
              <button type="button" className={BUTTON.primary} onClick={() => setOutcome('working')}>
                {_('login.payLink.retry')}
              </button>
            )}
            <Link to="/login" className={outcome === 'refused' ? BUTTON.primary : BUTTON.secondary}>
              {_('login.payLink.signIn')}
            </Link>
          </div>
        </>
      )}
    </div>
  );
}
