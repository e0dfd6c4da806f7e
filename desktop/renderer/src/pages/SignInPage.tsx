import { useLingui } from '@lingui/react';
import { Link, Navigate } from 'react-router-dom';
import { Loading } from '../../../../web/src/components/Loading';
import { OtpSignInForm } from '../../../../web/src/features/auth/OtpSignInForm';
import { useAuth } from '../../../../web/src/features/auth/auth-context';
import { useConfig } from '../../../../web/src/features/config/config-context';
import { useDesktopPlatform } from '../app/use-desktop-platform';

/** The web's e-mail code sign-in; the main process sends the verify as the desktop client and keeps the tokens. */
export function SignInPage() {
  const { _ } = useLingui();
  const { user, loading } = useAuth();
  const { brandName } = useConfig();
  const { serverUrl } = useDesktopPlatform();

  if (loading) return <Loading />;
  if (user) return <Navigate to="/dashboard" replace />;

  return (
    <div className="flex justify-center px-4 py-12 sm:py-16">
      <div className="w-full max-w-md rounded-2xl bg-white p-6 shadow-lg ring-1 ring-slate-200 sm:p-8">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">{_('desktop.signIn.title', { brand: brandName })}</h1>
        <p className="mt-2 mb-6 text-slate-600">{_('desktop.signIn.intro')}</p>
        <OtpSignInForm backLabel={_('login.form.backToEmail')} askReferralCode />
        <p className="mt-6 border-t border-slate-200 pt-4 text-sm text-slate-500">
          {_('desktop.signIn.server')} <span className="font-mono break-all text-slate-700">{serverUrl}</span>{' '}
          <Link to="/settings" className="font-semibold text-indigo-700 hover:text-indigo-600">
            {_('desktop.signIn.change')}
          </Link>
        </p>
      </div>
    </div>
  );
}
