import { Link } from 'react-router-dom';
import { Trans, useLingui } from '@lingui/react';
import { CallToAction, CardGrid, PageHero, Section, type Card } from '../../components/content';
import { useConfig, useCurrencyCode } from '../../features/config/config-context';
import { EmailLink, TEXT_LINK_CLASS } from '../../components/content/links';
import { CardIcon, CoinIcon, LockIcon, MailIcon } from '../../components/content/content-icons';

const TODAY: readonly { titleId: string; textId: string; Icon: Card['Icon'] }[] = [
  { titleId: 'trust.payments.today.stripe.title', textId: 'trust.payments.today.stripe.text', Icon: CardIcon },
  { titleId: 'trust.payments.today.noCard.title', textId: 'trust.payments.today.noCard.text', Icon: LockIcon },
  { titleId: 'trust.payments.today.email.title', textId: 'trust.payments.today.email.text', Icon: MailIcon },
];

const STRONG = <strong className="font-semibold text-slate-900" />;

export default function CryptoPaymentPage() {
  const { _ } = useLingui();
  const { brandName, supportEmail } = useConfig();
  const currency = useCurrencyCode();
  return (
    <>
      <PageHero eyebrow={_('trust.eyebrow')} title={_('trust.payments.hero.title')} subtitle={_('trust.payments.hero.subtitle', { brand: brandName })} />

      <Section
        title={_('trust.payments.today.title')}
        intro={
          <>
            <span data-unless="crypto">{_('trust.payments.today.introCard', { currency })}</span>
            <span data-claim="crypto">{_('trust.payments.today.introCrypto', { currency })}</span>
          </>
        }
      >
        <CardGrid cards={TODAY.map(({ titleId, textId, Icon }) => ({ title: _(titleId), text: _(textId), Icon }))} />
        <p className="mt-8 max-w-3xl leading-7 text-slate-600">{_('trust.payments.today.limits')}</p>
      </Section>

      <Section tone="muted" width="narrow" title={_('trust.payments.crypto.title')}>
        <div className="flex gap-4">
          <span className="inline-flex size-11 shrink-0 items-center justify-center rounded-xl bg-indigo-100 text-indigo-700">
            <CoinIcon className="size-6" />
          </span>
          <div className="space-y-4 leading-7 text-slate-700" data-claim="crypto">
            <p>
              <Trans id="trust.payments.crypto.available" components={{ 0: STRONG }} />
            </p>
            <p>{_('trust.payments.crypto.oneOff')}</p>
          </div>
          <div className="space-y-4 leading-7 text-slate-700" data-unless="crypto">
            <p>
              <Trans id="trust.payments.crypto.planned" components={{ 0: STRONG }} />
            </p>
            <p>
              <Trans
                id="trust.payments.crypto.tellUs"
                components={{ 0: <EmailLink email={supportEmail} subject={_('trust.payments.crypto.emailSubject')} /> }}
              />
            </p>
          </div>
        </div>
      </Section>

      <Section width="narrow" title={_('trust.payments.free.title')}>
        <div className="space-y-4 leading-7 text-slate-700">
          <p data-claim="trial">
            <Trans id="trust.payments.free.trial" components={{ 0: <Link to="/features/money-back-guarantee" className={TEXT_LINK_CLASS} /> }} />
          </p>
          <p>
            <Trans
              id="trust.payments.free.compare"
              components={{
                0: <Link to="/pricing" className={TEXT_LINK_CLASS} />,
                1: <Link to="/why-trust-us/anonymous-accounts" className={TEXT_LINK_CLASS} />,
              }}
            />
          </p>
        </div>
      </Section>

      <CallToAction />
    </>
  );
}
