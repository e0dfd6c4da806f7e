import { Fragment } from 'react';
import { Trans, useLingui } from '@lingui/react';
import { Link } from 'react-router-dom';
import { PageHero, Prose } from '../../components/content';
import { useConfig } from '../../features/config/config-context';
import { EmailLink } from '../../components/content/links';

interface EssentialCookie {
  name: string;
  purposeId: string;
  lifetimeId: string;
  scopeId: string;
}

const COOKIES: readonly EssentialCookie[] = [
  {
    name: 'vpn_access',
    purposeId: 'legal.cookies.access.purpose',
    lifetimeId: 'legal.cookies.access.lifetime',
    scopeId: 'legal.cookies.access.scope',
  },
  {
    name: 'vpn_refresh',
    purposeId: 'legal.cookies.refresh.purpose',
    lifetimeId: 'legal.cookies.refresh.lifetime',
    scopeId: 'legal.cookies.refresh.scope',
  },
];

export default function CookiesPage() {
  const { brandName, supportEmail } = useConfig();
  const { _ } = useLingui();
  const strong = { 0: <strong /> };
  return (
    <>
      <PageHero eyebrow={_('legal.eyebrow')} title={_('legal.cookies.title')} subtitle={_('legal.cookies.subtitle', { brand: brandName })} />
      <Prose>
        <h2>{_('legal.cookies.what.heading')}</h2>
        <p>{_('legal.cookies.what.text')}</p>

        <h2>{_('legal.cookies.ours.heading')}</h2>
        <p>
          <Trans id="legal.cookies.ours.text" components={strong} />
        </p>
        {COOKIES.map((cookie) => (
          <Fragment key={cookie.name}>
            <h3>
              <code className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-base text-slate-900">{cookie.name}</code>
            </h3>
            <ul>
              <li>
                <Trans id="legal.cookies.purpose" values={{ text: _(cookie.purposeId) }} components={strong} />
              </li>
              <li>
                <Trans id="legal.cookies.lifetime" values={{ text: _(cookie.lifetimeId) }} components={strong} />
              </li>
              <li>
                <Trans id="legal.cookies.scope" values={{ text: _(cookie.scopeId) }} components={strong} />
              </li>
            </ul>
          </Fragment>
        ))}
        <p>{_('legal.cookies.deletedOnSignOut')}</p>

        <h2>{_('legal.cookies.notUsed.heading')}</h2>
        <ul>
          <li>{_('legal.cookies.notUsed.analytics')}</li>
          <li>{_('legal.cookies.notUsed.advertising')}</li>
          <li>{_('legal.cookies.notUsed.tracking')}</li>
        </ul>
        <p>{_('legal.cookies.stripe')}</p>

        <h2>{_('legal.cookies.manage.heading')}</h2>
        <p>{_('legal.cookies.manage.text')}</p>
        <h3>Chrome</h3>
        <p>
          <Trans id="legal.cookies.manage.chrome" components={strong} />
        </p>
        <h3>Firefox</h3>
        <p>
          <Trans id="legal.cookies.manage.firefox" components={strong} />
        </p>
        <h3>Safari</h3>
        <p>
          <Trans id="legal.cookies.manage.safari" components={strong} />
        </p>

        <h2>{_('legal.cookies.changes.heading')}</h2>
        <p>
          <Trans
            id="legal.cookies.changes.text"
            values={{ email: <EmailLink email={supportEmail} subject={_('legal.cookies.emailSubject')} className="" /> }}
            components={{ 0: <Link to="/privacy" /> }}
          />
        </p>
      </Prose>
    </>
  );
}
