import { useLingui } from '@lingui/react';
import { Navigate, useSearchParams } from 'react-router-dom';
import { safeReturnPath } from '../../../shared/return-path.js';
import { OtpSignInForm } from '../features/auth/OtpSignInForm';
import { useAuth } from '../features/auth/auth-context';
import { useConfig } from '../features/config/config-context';
import { MiniAppWithoutEmail } from '../features/telegram/MiniAppWithoutEmail';

export default function LoginPage() {
  const { _ } = useLingui();
  const { user } = useAuth();
  const { brandName } = useConfig();
  const [searchParams] = useSearchParams();
  // Where to go once signed in, e.g. /dashboard?plan=… from a pricing page 'Get' button.
  const next = safeReturnPath(searchParams.get('next'), '/dashboard');

  if (user) return <Navigate to={next} replace />;

  return (
    <div className="flex justify-center px-4 py-16 sm:py-24">
      <div className="w-full max-w-md rounded-2xl bg-white p-6 shadow-lg ring-1 ring-slate-200 sm:p-8">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">{_('login.page.title', { brand: brandName })}</h1>
        <p className="mt-2 mb-6 text-slate-600">{_('login.page.intro')}</p>
        <OtpSignInForm backLabel={_('login.form.backToEmail')} next={next} />
        <MiniAppWithoutEmail next={next} />
      </div>
    </div>
  );
}
