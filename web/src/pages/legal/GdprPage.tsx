import { Trans, useLingui } from '@lingui/react';
import { Link } from 'react-router-dom';
import { PageHero, Prose } from '../../components/content';
import { useConfig, useLocationsClaim } from '../../features/config/config-context';
import { EmailLink } from '../../components/content/links';

export default function GdprPage() {
  const { brandName, supportEmail } = useConfig();
  const locationsClaim = useLocationsClaim();
  const { _ } = useLingui();
  const strong = { 0: <strong /> };
  const privacyLink = { 0: <Link to="/privacy" /> };
  return (
    <>
      <PageHero eyebrow={_('legal.eyebrow')} title={_('legal.gdpr.title')} subtitle={_('legal.gdpr.subtitle')} />
      <Prose>
        <p>{_('legal.gdpr.intro', { brand: brandName })}</p>

        <h2>{_('legal.gdpr.data.heading')}</h2>
        <p>
          <Trans id="legal.gdpr.data.text" components={privacyLink} />
        </p>

        <h2>{_('legal.gdpr.rights.heading')}</h2>
        <h3>{_('legal.gdpr.rights.access.heading')}</h3>
        <p>{_('legal.gdpr.rights.access.text')}</p>
        <h3>{_('legal.gdpr.rights.rectification.heading')}</h3>
        <p>{_('legal.gdpr.rights.rectification.text')}</p>
        <h3>{_('legal.gdpr.rights.erasure.heading')}</h3>
        <p>{_('legal.gdpr.rights.erasure.text')}</p>
        <h3>{_('legal.gdpr.rights.portability.heading')}</h3>
        <p>{_('legal.gdpr.rights.portability.text')}</p>
        <h3>{_('legal.gdpr.rights.other.heading')}</h3>
        <p>{_('legal.gdpr.rights.other.text')}</p>

        <h2>{_('legal.gdpr.bases.heading')}</h2>
        <ul>
          <li>
            <Trans id="legal.gdpr.bases.contract" components={strong} />
          </li>
          <li>
            <Trans id="legal.gdpr.bases.obligation" components={strong} />
          </li>
          <li>
            <Trans id="legal.gdpr.bases.interests" components={strong} />
          </li>
          <li>
            <Trans id="legal.gdpr.bases.consent" components={strong} />
          </li>
        </ul>

        <h2>{_('legal.gdpr.protection.heading')}</h2>
        <ul>
          <li>{_('legal.gdpr.protection.minimisation')}</li>
          <li>{_('legal.gdpr.protection.encryption')}</li>
          <li>{_('legal.gdpr.protection.passwordless')}</li>
          <li>{_('legal.gdpr.protection.cookies')}</li>
          <li>{_('legal.gdpr.protection.access')}</li>
          <li>{_('legal.gdpr.protection.cards')}</li>
        </ul>

        <h2>{_('legal.gdpr.retention.heading')}</h2>
        <p>{_('legal.gdpr.retention.text')}</p>

        <h2>{_('legal.gdpr.transfers.heading')}</h2>
        <p>{_('legal.gdpr.transfers.text', { locations: locationsClaim })}</p>

        <h2>{_('legal.gdpr.contact.heading')}</h2>
        <p>
          <Trans id="legal.gdpr.contact.text" values={{ email: <EmailLink email={supportEmail} subject={_('legal.gdpr.emailSubject')} className="" /> }} />
        </p>
      </Prose>
    </>
  );
}
