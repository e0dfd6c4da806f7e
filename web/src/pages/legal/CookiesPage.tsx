import { Fragment } from 'react';
import { Link } from 'react-router-dom';
import { PageHero, Prose } from '../../components/content';
import { useConfig } from '../../features/config/config-context';
import { EmailLink } from '../../components/content/links';

interface EssentialCookie {
  name: string;
  purpose: string;
  lifetime: string;
  scope: string;
}

const COOKIES: readonly EssentialCookie[] = [
  {
    name: 'vpn_access',
    purpose: 'Authentication: a short-lived sign-in token that tells our server which account a request comes from.',
    lifetime: '15 minutes, then it is renewed automatically while you are signed in.',
    scope: 'Sent to this website only. It is HttpOnly, so scripts on the page cannot read it, and SameSite=Lax.',
  },
  {
    name: 'vpn_refresh',
    purpose: 'Session: keeps you signed in, so you do not need a new e-mail code every 15 minutes.',
    lifetime: 'Up to 30 days, or until you sign out.',
    scope:
      'Sent only to /api/auth, the part of our server that renews sign-ins, and never with other requests. It is HttpOnly and SameSite=Strict.',
  },
];

export default function CookiesPage() {
  const { brandName, supportEmail } = useConfig();
  return (
    <>
      <PageHero
        eyebrow="Legal"
        title="Cookie Policy"
        subtitle={`${brandName} uses only the cookies it needs to sign you in and keep your session secure. Nothing else.`}
      />
      <Prose>
        <h2>What cookies are</h2>
        <p>
          Cookies are small text files a website asks your browser to store and send back with later requests. They
          can be used to remember who you are, or to follow you around the web. We use them only for the first.
        </p>

        <h2>The cookies we use</h2>
        <p>
          All of our cookies are <strong>essential</strong>: they handle your session, authentication and security.
          Without them you could not sign in, so they do not need your consent, and they are set only when you sign in.
          Visitors who never sign in get no cookies from us at all.
        </p>
        {COOKIES.map((cookie) => (
          <Fragment key={cookie.name}>
            <h3>
              <code className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-base text-slate-900">{cookie.name}</code>
            </h3>
            <ul>
              <li>
                <strong>Purpose:</strong> {cookie.purpose}
              </li>
              <li>
                <strong>Lifetime:</strong> {cookie.lifetime}
              </li>
              <li>
                <strong>Scope and security:</strong> {cookie.scope}
              </li>
            </ul>
          </Fragment>
        ))}
        <p>Both cookies are deleted when you sign out.</p>

        <h2>What we do not use</h2>
        <ul>
          <li>No analytics cookies: we do not measure your visits with third-party analytics tools.</li>
          <li>No advertising cookies, and no advertising on our site.</li>
          <li>No social-media pixels, embedded trackers or cross-site tracking of any kind.</li>
        </ul>
        <p>
          When you pay by card you leave our site for Stripe&apos;s checkout page, where Stripe may set its own cookies
          to process the payment and prevent fraud. Those are governed by Stripe&apos;s own policy.
        </p>

        <h2>Managing cookies in your browser</h2>
        <p>
          You can see and delete cookies in your browser at any time. If you block cookies for our site, you will not be
          able to sign in, but all our public pages will still work.
        </p>
        <h3>Chrome</h3>
        <p>
          Open the menu (three dots) and go to <strong>Settings</strong> → <strong>Privacy and security</strong> →{' '}
          <strong>Third-party cookies</strong> or <strong>Site settings</strong> → <strong>Cookies and site data</strong>.
          To remove ours, choose <strong>See all site data and permissions</strong>, search for this site and delete its
          data.
        </p>
        <h3>Firefox</h3>
        <p>
          Open the menu (three lines) and go to <strong>Settings</strong> → <strong>Privacy &amp; Security</strong>.
          Under <strong>Cookies and Site Data</strong>, choose <strong>Manage Data</strong> to remove the data of a
          single site, or <strong>Manage Exceptions</strong> to block or allow cookies for it.
        </p>
        <h3>Safari</h3>
        <p>
          On a Mac, choose <strong>Safari</strong> → <strong>Settings</strong> → <strong>Privacy</strong>, then{' '}
          <strong>Manage Website Data</strong> to remove a site&apos;s data. On iPhone and iPad, go to{' '}
          <strong>Settings</strong> → <strong>Safari</strong> → <strong>Advanced</strong> →{' '}
          <strong>Website Data</strong>.
        </p>

        <h2>Changes and contact</h2>
        <p>
          If we ever need a new cookie, we will list it here before we start using it. More about how we handle your
          data is in our <Link to="/privacy">Privacy Policy</Link>. Questions? Write to{' '}
          <EmailLink email={supportEmail} subject="Cookies" className="" />.
        </p>
      </Prose>
    </>
  );
}
