import { Trans, useLingui } from '@lingui/react';
import { Link } from 'react-router-dom';
import { PageHero, Prose } from '../../components/content';
import { useConfig } from '../../features/config/config-context';
import { EmailLink } from '../../components/content/links';
import { useLocale } from '../../i18n/locale-context';
import { LAST_UPDATED, formatLastUpdated } from './last-updated';

export default function PrivacyPage() {
  const { brandName, supportEmail } = useConfig();
  const { _ } = useLingui();
  const { locale } = useLocale();
  return (
    <>
      <PageHero
        eyebrow={_('legal.eyebrow')}
        title={_('legal.privacy.title')}
        subtitle={_('legal.lastUpdated', { date: formatLastUpdated(LAST_UPDATED.privacy, locale) })}
      />
      <Prose>
        <p>{_('legal.privacy.intro', { brand: brandName })}</p>

        <h2>{_('legal.privacy.collect.heading')}</h2>
        <h3>{_('legal.privacy.collect.email.heading')}</h3>
        <p>{_('legal.privacy.collect.email.text')}</p>
        <h3>{_('legal.privacy.collect.records.heading')}</h3>
        <p>{_('legal.privacy.collect.records.text')}</p>
        <h3>{_('legal.privacy.collect.payments.heading')}</h3>
        <p>{_('legal.privacy.collect.payments.text')}</p>
        <h3>{_('legal.privacy.collect.not.heading')}</h3>
        <p>
          <Trans id="legal.privacy.collect.not.text" components={{ 0: <strong /> }} />
        </p>

        <h2>{_('legal.privacy.use.heading')}</h2>
        <ul>
          <li>{_('legal.privacy.use.account')}</li>
          <li>{_('legal.privacy.use.vpn')}</li>
          <li>{_('legal.privacy.use.payments')}</li>
          <li>{_('legal.privacy.use.support')}</li>
          <li>{_('legal.privacy.use.abuse')}</li>
        </ul>
        <p>{_('legal.privacy.use.never')}</p>

        <h2>{_('legal.privacy.cookies.heading')}</h2>
        <p>
          <Trans id="legal.privacy.cookies.text" components={{ 0: <Link to="/cookies" /> }} />
        </p>

        <h2>{_('legal.privacy.retention.heading')}</h2>
        <p>{_('legal.privacy.retention.text')}</p>

        <h2>{_('legal.privacy.rights.heading')}</h2>
        <p>{_('legal.privacy.rights.intro')}</p>
        <ul>
          <li>{_('legal.privacy.rights.copy')}</li>
          <li>{_('legal.privacy.rights.correct')}</li>
          <li>{_('legal.privacy.rights.delete')}</li>
          <li>{_('legal.privacy.rights.portable')}</li>
          <li>{_('legal.privacy.rights.object')}</li>
        </ul>
        <p>
          <Trans id="legal.privacy.rights.how" components={{ 0: <Link to="/gdpr" /> }} />
        </p>

        <h2>{_('legal.privacy.security.heading')}</h2>
        <p>{_('legal.privacy.security.text')}</p>

        <h2>{_('legal.privacy.changes.heading')}</h2>
        <p>{_('legal.privacy.changes.text')}</p>

        <h2>{_('legal.privacy.contact.heading')}</h2>
        <p>
          <Trans
            id="legal.privacy.contact.text"
            values={{ email: <EmailLink email={supportEmail} subject={_('legal.privacy.emailSubject')} className="" /> }}
          />
        </p>
      </Prose>
    </>
  );
}
