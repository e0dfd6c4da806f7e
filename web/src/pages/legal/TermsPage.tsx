import { Trans, useLingui } from '@lingui/react';
import { Link } from 'react-router-dom';
import { PageHero, Prose } from '../../components/content';
import { useConfig, useCurrencyCode } from '../../features/config/config-context';
import { EmailLink } from '../../components/content/links';
import { useLocale } from '../../i18n/locale-context';
import { LAST_UPDATED, formatLastUpdated } from './last-updated';

export default function TermsPage() {
  const { brandName, supportEmail } = useConfig();
  const currency = useCurrencyCode();
  const { _ } = useLingui();
  const { locale } = useLocale();
  const strong = { 0: <strong /> };
  const privacyLink = { 0: <Link to="/privacy" /> };
  return (
    <>
      <PageHero
        eyebrow={_('legal.eyebrow')}
        title={_('legal.terms.title')}
        subtitle={_('legal.lastUpdated', { date: formatLastUpdated(LAST_UPDATED.terms, locale) })}
      />
      <Prose>
        <h2>{_('legal.terms.intro.heading')}</h2>
        <p>{_('legal.terms.intro.text', { brand: brandName })}</p>
        <p>
          <Trans id="legal.terms.intro.privacy" components={privacyLink} />
        </p>

        <h2>{_('legal.terms.usage.heading')}</h2>
        <p>
          <Trans id="legal.terms.usage.age" components={strong} />
        </p>
        <p>{_('legal.terms.usage.link')}</p>

        <h2>{_('legal.terms.prohibited.heading')}</h2>
        <p>{_('legal.terms.prohibited.intro')}</p>
        <ul>
          <li>{_('legal.terms.prohibited.law')}</li>
          <li>{_('legal.terms.prohibited.spam')}</li>
          <li>{_('legal.terms.prohibited.attacks')}</li>
          <li>{_('legal.terms.prohibited.denialOfService')}</li>
          <li>{_('legal.terms.prohibited.sharing')}</li>
          <li>{_('legal.terms.prohibited.intellectualProperty')}</li>
          <li>{_('legal.terms.prohibited.children')}</li>
        </ul>
        <p>{_('legal.terms.prohibited.logs')}</p>

        <h2>{_('legal.terms.payment.heading')}</h2>
        <ul>
          <li>{_('legal.terms.payment.currency', { currency })}</li>
          <li>{_('legal.terms.payment.stripe')}</li>
          <li>
            <Trans id="legal.terms.payment.autoRenew" components={strong} />
          </li>
          <li>
            <Trans id="legal.terms.payment.oneOff" components={strong} />
          </li>
          <li>
            <Trans id="legal.terms.payment.refund" components={{ 0: <strong />, 1: <Link to="/features/money-back-guarantee" /> }} />
          </li>
          <li>{_('legal.terms.payment.prices')}</li>
        </ul>

        <h2>{_('legal.terms.availability.heading')}</h2>
        <p>
          <Trans id="legal.terms.availability.text" components={{ 0: <strong />, 1: <Link to="/status" /> }} />
        </p>

        <h2>{_('legal.terms.liability.heading')}</h2>
        <p>{_('legal.terms.liability.asIs')}</p>
        <p>{_('legal.terms.liability.limit')}</p>

        <h2>{_('legal.terms.termination.heading')}</h2>
        <p>{_('legal.terms.termination.text')}</p>
        <p>
          <Trans id="legal.terms.termination.data" components={privacyLink} />
        </p>

        <h2>{_('legal.terms.contact.heading')}</h2>
        <p>
          <Trans id="legal.terms.contact.text" values={{ email: <EmailLink email={supportEmail} subject={_('legal.terms.emailSubject')} className="" /> }} />
        </p>
      </Prose>
    </>
  );
}
