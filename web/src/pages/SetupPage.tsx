import { Link, Navigate, useLocation } from 'react-router-dom';
import { NumberedStep, PageHero, PlatformLinks } from '../components/content';

/** The e-mail the previous screen passed along in navigation state, if any. */
function readEmail(state: unknown): string | null {
  if (typeof state !== 'object' || state === null || !('email' in state)) return null;
  const { email } = state as { email: unknown };
  return typeof email === 'string' && email.trim() !== '' ? email : null;
}

/** Three set-up steps for a customer who just got an account. Without an e-mail in navigation state it goes home. */
export default function SetupPage() {
  const location = useLocation();
  const email = readEmail(location.state);
  if (!email) return <Navigate to="/" replace />;

  return (
    <>
      <PageHero
        title="Set Up Your VPN"
        subtitle={
          <>
            Three steps to a private connection for <span className="font-semibold break-words text-white">{email}</span>.
          </>
        }
      />
      <div className="mx-auto max-w-3xl px-4 py-12 sm:px-6 sm:py-16">
        <ol className="space-y-6">
          <NumberedStep number={1} title="Download a client">
            <p>
              Install the free, open-source Hiddify app. Pick your device for downloads and system requirements:
            </p>
            <PlatformLinks />
          </NumberedStep>
          <NumberedStep number={2} title="Install certificate">
            <p>
              Not needed with the recommended clients: Hiddify and the other apps in our{' '}
              <Link to="/help" className="font-medium text-indigo-700 underline">
                Help Center
              </Link>{' '}
              connect with your subscription link alone, so there is no certificate or profile to install. Your device
              only asks once to allow the VPN connection; accept it.
            </p>
          </NumberedStep>
          <NumberedStep number={3} title="Connect to VPN">
            <p>
              Open My VPN Accounts, copy your subscription link or scan its QR code, import it into the app and press
              connect.
            </p>
            <Link
              to="/dashboard"
              className="mt-4 inline-block rounded-lg bg-indigo-600 px-5 py-3 font-semibold text-white shadow-sm hover:bg-indigo-700"
            >
              Go to My VPN Accounts
            </Link>
          </NumberedStep>
        </ol>
      </div>
    </>
  );
}
