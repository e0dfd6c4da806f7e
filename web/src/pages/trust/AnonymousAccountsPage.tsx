import { Link } from 'react-router-dom';
import { Trans, useLingui } from '@lingui/react';
import { CallToAction, CardGrid, PageHero, Section, type Card } from '../../components/content';
import { TrialClaim } from '../../components/content/TrialClaim';
import { useConfig } from '../../features/config/config-context';
import { BUTTON_LINK_CLASS, TEXT_LINK_CLASS } from '../../components/content/links';
import { BanIcon, CheckCircleIcon, KeyIcon, LockIcon, MailIcon } from '../../components/content/content-icons';

interface CardMessages {
  titleId: string;
  textId: string;
  Icon: Card['Icon'];
}

const STEPS: readonly CardMessages[] = [
  { titleId: 'trust.anonymous.step.email.title', textId: 'trust.anonymous.step.email.text', Icon: MailIcon },
  { titleId: 'trust.anonymous.step.code.title', textId: 'trust.anonymous.step.code.text', Icon: KeyIcon },
  { titleId: 'trust.anonymous.step.start.title', textId: 'trust.anonymous.step.start.text', Icon: CheckCircleIcon },
];
const TRIAL_STEP_TEXT = 'trust.anonymous.step.start.text';
/** Things not asked that only a store with a free trial could ask for. */
const TRIAL_ONLY = new Set(['trust.anonymous.notAsked.card']);

const NOT_ASKED: readonly string[] = [
  'trust.anonymous.notAsked.name',
  'trust.anonymous.notAsked.phone',
  'trust.anonymous.notAsked.address',
  'trust.anonymous.notAsked.password',
  'trust.anonymous.notAsked.card',
];

const TIPS: readonly CardMessages[] = [
  { titleId: 'trust.anonymous.tip.address.title', textId: 'trust.anonymous.tip.address.text', Icon: LockIcon },
  { titleId: 'trust.anonymous.tip.inbox.title', textId: 'trust.anonymous.tip.inbox.text', Icon: MailIcon },
  { titleId: 'trust.anonymous.tip.reuse.title', textId: 'trust.anonymous.tip.reuse.text', Icon: BanIcon },
];

export default function AnonymousAccountsPage() {
  const { _ } = useLingui();
  const { brandName } = useConfig();
  // The last step names the free trial only where the store offers one (TrialClaim).
  const cards = (list: readonly CardMessages[]): Card[] =>
    list.map(({ titleId, textId, Icon }) => ({
      title: _(titleId),
      text: textId === TRIAL_STEP_TEXT ? <TrialClaim trial={_(textId)} otherwise={_(`${textId}NoTrial`)} /> : _(textId),
      Icon,
    }));
  return (
    <>
      <PageHero eyebrow={_('trust.eyebrow')} title={_('trust.anonymous.hero.title')} subtitle={_('trust.anonymous.hero.subtitle', { brand: brandName })}>
        <Link
          to="/login"
          className="inline-block rounded-lg bg-white px-6 py-3 font-semibold text-indigo-900 shadow hover:bg-indigo-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
        >
          {_('trust.anonymous.hero.create')}
        </Link>
      </PageHero>

      <Section title={_('trust.anonymous.steps.title')} intro={_('trust.anonymous.steps.intro')}>
        <CardGrid cards={cards(STEPS)} />
      </Section>

      <Section tone="muted" width="narrow" title={_('trust.anonymous.notAsked.title')}>
        <ul className="list-disc space-y-2 ps-6 leading-7 text-slate-700">
          {NOT_ASKED.map((id) => (
            <li key={id} data-claim={TRIAL_ONLY.has(id) ? 'trial' : undefined}>
              {_(id)}
            </li>
          ))}
        </ul>
        <p className="mt-6 leading-7 text-slate-700">
          <Trans
            id="trust.anonymous.notAsked.payments"
            components={{
              0: <Link to="/why-trust-us/crypto-payment" className={TEXT_LINK_CLASS} />,
              1: <Link to="/privacy" className={TEXT_LINK_CLASS} />,
            }}
          />
        </p>
      </Section>

      <Section title={_('trust.anonymous.tips.title')}>
        <CardGrid cards={cards(TIPS)} />
        <p className="mt-8">
          <Link to="/login" className={BUTTON_LINK_CLASS}>
            {_('trust.anonymous.tips.signIn')}
          </Link>
        </p>
      </Section>

      <CallToAction />
    </>
  );
}
