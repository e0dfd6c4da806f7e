import { Link } from 'react-router-dom';
import { Trans, useLingui } from '@lingui/react';
import { CallToAction, CardGrid, PageHero, Section, type Card, StepCards } from '../../components/content';
import { DevicesIcon, ShieldIcon } from '../../components/icons';
import { useConfig } from '../../features/config/config-context';
import NotFoundPage from '../NotFoundPage';
import { BUTTON_LINK_CLASS, TEXT_LINK_CLASS } from '../../components/content/links';
import { AlertIcon, BanIcon, EyeOffIcon, FishhookIcon, LockIcon } from '../../components/content/content-icons';

interface CardMessages {
  titleId: string;
  textId: string;
  Icon?: Card['Icon'];
}

const THREATS: readonly CardMessages[] = [
  { titleId: 'features.threats.threat.malware.title', textId: 'features.threats.threat.malware.text', Icon: AlertIcon },
  { titleId: 'features.threats.threat.phishing.title', textId: 'features.threats.threat.phishing.text', Icon: FishhookIcon },
  { titleId: 'features.threats.threat.trackers.title', textId: 'features.threats.threat.trackers.text', Icon: EyeOffIcon },
  { titleId: 'features.threats.threat.ads.title', textId: 'features.threats.threat.ads.text', Icon: BanIcon },
];

const STEPS: readonly CardMessages[] = [
  { titleId: 'features.threats.step.open.title', textId: 'features.threats.step.open.text' },
  { titleId: 'features.threats.step.check.title', textId: 'features.threats.step.check.text' },
  { titleId: 'features.threats.step.load.title', textId: 'features.threats.step.load.text' },
];

const BENEFITS: readonly CardMessages[] = [
  { titleId: 'features.threats.benefit.install.title', textId: 'features.threats.benefit.install.text', Icon: DevicesIcon },
  { titleId: 'features.threats.benefit.private.title', textId: 'features.threats.benefit.private.text', Icon: LockIcon },
  { titleId: 'features.threats.benefit.updated.title', textId: 'features.threats.benefit.updated.text', Icon: ShieldIcon },
];

const STRONG = <strong className="font-semibold text-slate-900" />;

export default function ThreatProtectionPage() {
  const { _ } = useLingui();
  const { brandName, protectionFeatures } = useConfig();
  // The server answers 404 for this page when the operator does not offer it; the router agrees.
  if (!protectionFeatures) return <NotFoundPage />;
  const cards = (list: readonly CardMessages[]) => list.map(({ titleId, textId, Icon }) => ({ title: _(titleId), text: _(textId), Icon }));
  return (
    <>
      <PageHero eyebrow={_('features.eyebrow')} title={_('features.threats.hero.title')} subtitle={_('features.threats.hero.subtitle', { brand: brandName })} />

      <Section title={_('features.threats.blocks.title')} intro={_('features.threats.blocks.intro')}>
        <CardGrid cards={cards(THREATS)} columns={4} />
      </Section>

      <Section tone="muted" title={_('features.threats.how.title')}>
        <StepCards steps={cards(STEPS)} />
      </Section>

      <Section title={_('features.threats.benefits.title')}>
        <CardGrid cards={cards(BENEFITS)} />
      </Section>

      <Section tone="muted" width="narrow" title={_('features.threats.plans.title')}>
        <div className="space-y-4 leading-7 text-slate-700">
          <p>
            <Trans id="features.threats.plans.included" components={{ 0: STRONG, 1: STRONG }} />
          </p>
          <p>
            <Trans id="features.threats.plans.commonSense" components={{ 0: <Link to="/features/no-tracking" className={TEXT_LINK_CLASS} /> }} />
          </p>
          <p className="pt-2">
            <Link to="/pricing" className={BUTTON_LINK_CLASS}>
              {_('features.threats.plans.compare')}
            </Link>
          </p>
        </div>
      </Section>

      <CallToAction />
    </>
  );
}
