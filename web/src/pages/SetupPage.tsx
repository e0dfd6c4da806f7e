import { Trans, useLingui } from '@lingui/react';
import { Link, Navigate, useLocation } from 'react-router-dom';
import { NumberedStep, PageHero, PlatformLinks } from '../components/content';

/** The e-mail the previous screen passed along in navigation state, if any. */
function readEmail(state: unknown): string | null {
  if (typeof state !== 'object' || state === null || !('email' in state)) return null;
  const { email } = state;
  return typeof email === 'string' && email.trim() !== '' ? email : null;
}

/** Three set-up steps for a customer who just got an account. Without an e-mail in navigation state it goes home. */
export default function SetupPage() {
  const { _ } = useLingui();
  const location = useLocation();
  const email = readEmail(location.state);
  if (!email) return <Navigate to="/" replace />;

  return (
    <>
      <PageHero
        title={_('account.setupPage.title')}
        subtitle={<Trans id="account.setupPage.subtitle" values={{ email }} components={{ 0: <bdi className="font-semibold break-words text-white" /> }} />}
      />
      <div className="mx-auto max-w-3xl px-4 py-12 sm:px-6 sm:py-16">
        <ol className="space-y-6">
          <NumberedStep number={1} title={_('account.setupPage.downloadTitle')}>
            <p>{_('account.setupPage.downloadText')}</p>
            <PlatformLinks />
          </NumberedStep>
          <NumberedStep number={2} title={_('account.setupPage.certificateTitle')}>
            <p>
              <Trans id="account.setupPage.certificateText" components={{ 0: <Link to="/help" className="font-medium text-indigo-700 underline" /> }} />
            </p>
          </NumberedStep>
          <NumberedStep number={3} title={_('account.setupPage.connectTitle')}>
            <p>{_('account.setupPage.connectText')}</p>
            <Link to="/dashboard" className="mt-4 inline-block rounded-lg bg-indigo-600 px-5 py-3 font-semibold text-white shadow-sm hover:bg-indigo-700">
              {_('account.setupPage.goToAccounts')}
            </Link>
          </NumberedStep>
        </ol>
      </div>
    </>
  );
}
