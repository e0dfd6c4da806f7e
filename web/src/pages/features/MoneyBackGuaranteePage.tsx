import { Link } from 'react-router-dom';
import { Trans, useLingui } from '@lingui/react';
import { CallToAction, CardGrid, PageHero, Section, type Card } from '../../components/content';
import { RefundIcon } from '../../components/icons';
import { useConfig } from '../../features/config/config-context';
import { BUTTON_LINK_CLASS, EmailLink, TEXT_LINK_CLASS } from '../../components/content/links';
import { CardIcon, CheckCircleIcon, ClockIcon } from '../../components/content/content-icons';

const PROMISES: readonly { titleId: string; textId: string; Icon: Card['Icon'] }[] = [
  { titleId: 'features.moneyBack.promise.days.title', textId: 'features.moneyBack.promise.days.text', Icon: ClockIcon },
  { titleId: 'features.moneyBack.promise.full.title', textId: 'features.moneyBack.promise.full.text', Icon: RefundIcon },
  { titleId: 'features.moneyBack.promise.noQuestions.title', textId: 'features.moneyBack.promise.noQuestions.text', Icon: CheckCircleIcon },
  { titleId: 'features.moneyBack.promise.card.title', textId: 'features.moneyBack.promise.card.text', Icon: CardIcon },
];

const DETAILS: readonly { titleId: string; textId: string }[] = [
  { titleId: 'features.moneyBack.details.personal.title', textId: 'features.moneyBack.details.personal.text' },
  { titleId: 'features.moneyBack.details.business.title', textId: 'features.moneyBack.details.business.text' },
  { titleId: 'features.moneyBack.details.trial.title', textId: 'features.moneyBack.details.trial.text' },
];

export default function MoneyBackGuaranteePage() {
  const { _ } = useLingui();
  const { brandName, supportEmail } = useConfig();
  return (
    <>
      <PageHero
        eyebrow={_('features.eyebrow')}
        title={_('features.moneyBack.hero.title')}
        subtitle={_('features.moneyBack.hero.subtitle', { brand: brandName })}
      />

      <Section title={_('features.moneyBack.promise.title')}>
        <CardGrid cards={PROMISES.map(({ titleId, textId, Icon }) => ({ title: _(titleId), text: _(textId), Icon }))} columns={4} />
      </Section>

      <Section tone="muted" width="narrow" title={_('features.moneyBack.howTo.title')}>
        <ol className="list-decimal space-y-4 ps-6 leading-7 text-slate-700">
          <li>
            <Trans
              id="features.moneyBack.howTo.email"
              components={{ 0: <EmailLink email={supportEmail} subject={_('features.moneyBack.howTo.emailSubject')} /> }}
            />
          </li>
          <li>{_('features.moneyBack.howTo.address')}</li>
          <li>{_('features.moneyBack.howTo.confirm')}</li>
        </ol>
      </Section>

      <Section width="narrow" title={_('features.moneyBack.details.title')}>
        <div className="space-y-8 leading-7 text-slate-700">
          {DETAILS.map(({ titleId, textId }) => (
            <div key={titleId} data-claim={titleId === 'features.moneyBack.details.trial.title' ? 'trial' : undefined}>
              <h3 className="text-lg font-semibold text-slate-900">{_(titleId)}</h3>
              <p className="mt-2">{_(textId)}</p>
            </div>
          ))}
          <p>
            <Trans id="features.moneyBack.details.terms" components={{ 0: <Link to="/terms" className={TEXT_LINK_CLASS} /> }} />
          </p>
          <p>
            <Link to="/pricing" className={BUTTON_LINK_CLASS}>
              {_('features.moneyBack.details.choosePlan')}
            </Link>
          </p>
        </div>
      </Section>

      <CallToAction />
    </>
  );
}
