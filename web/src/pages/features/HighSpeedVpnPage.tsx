import { Link } from 'react-router-dom';
import { Trans, useLingui } from '@lingui/react';
import { CallToAction, CardGrid, PageHero, Section, type Card } from '../../components/content';
import { BoltIcon, GlobeIcon } from '../../components/icons';
import { useConfig, useLocationsClaim } from '../../features/config/config-context';
import { BUTTON_LINK_CLASS, TEXT_LINK_CLASS } from '../../components/content/links';
import { GaugeIcon, MonitorIcon, PhoneIcon, ServerIcon } from '../../components/content/content-icons';

interface CardMessages {
  titleId: string;
  textId: string;
  Icon: Card['Icon'];
}

const STATS: readonly { valueId: string; labelId: string; noteId: string }[] = [
  { valueId: 'features.highSpeed.stat.ports.value', labelId: 'features.highSpeed.stat.ports.label', noteId: 'features.highSpeed.stat.ports.note' },
  { valueId: 'features.highSpeed.stat.latency.value', labelId: 'features.highSpeed.stat.latency.label', noteId: 'features.highSpeed.stat.latency.note' },
  { valueId: 'features.highSpeed.stat.uptime.value', labelId: 'features.highSpeed.stat.uptime.label', noteId: 'features.highSpeed.stat.uptime.note' },
];

const REASONS: readonly CardMessages[] = [
  { titleId: 'features.highSpeed.reason.ports.title', textId: 'features.highSpeed.reason.ports.text', Icon: ServerIcon },
  { titleId: 'features.highSpeed.reason.location.title', textId: 'features.highSpeed.reason.location.text', Icon: GlobeIcon },
  { titleId: 'features.highSpeed.reason.protocols.title', textId: 'features.highSpeed.reason.protocols.text', Icon: BoltIcon },
  { titleId: 'features.highSpeed.reason.capacity.title', textId: 'features.highSpeed.reason.capacity.text', Icon: GaugeIcon },
];

const USES: readonly CardMessages[] = [
  { titleId: 'features.highSpeed.use.streaming.title', textId: 'features.highSpeed.use.streaming.text', Icon: MonitorIcon },
  { titleId: 'features.highSpeed.use.gaming.title', textId: 'features.highSpeed.use.gaming.text', Icon: BoltIcon },
  { titleId: 'features.highSpeed.use.work.title', textId: 'features.highSpeed.use.work.text', Icon: PhoneIcon },
];

export default function HighSpeedVpnPage() {
  const { _ } = useLingui();
  const { brandName } = useConfig();
  const locationsClaim = useLocationsClaim();
  const cards = (list: readonly CardMessages[]): Card[] =>
    list.map(({ titleId, textId, Icon }) => ({ title: _(titleId), text: _(textId, { locations: locationsClaim }), Icon }));
  return (
    <>
      <PageHero
        eyebrow={_('features.eyebrow')}
        title={_('features.highSpeed.hero.title')}
        subtitle={_('features.highSpeed.hero.subtitle', { brand: brandName })}
      >
        <ul className="mx-auto grid max-w-3xl gap-4 sm:grid-cols-3">
          {STATS.map((stat) => (
            <li key={stat.valueId} className="rounded-2xl bg-white/10 p-5 ring-1 ring-white/20">
              <span className="block text-3xl font-extrabold">{_(stat.valueId)}</span>
              <span className="mt-1 block font-semibold text-indigo-100">{_(stat.labelId)}</span>
              <span className="mt-2 block text-sm text-indigo-100">{_(stat.noteId)}</span>
            </li>
          ))}
        </ul>
      </PageHero>

      <Section title={_('features.highSpeed.reasons.title')} intro={_('features.highSpeed.reasons.intro')}>
        <CardGrid cards={cards(REASONS)} columns={2} />
      </Section>

      <Section tone="muted" title={_('features.highSpeed.uses.title')}>
        <CardGrid cards={cards(USES)} />
      </Section>

      <Section width="narrow" title={_('features.highSpeed.numbers.title')}>
        <div className="space-y-4 leading-7 text-slate-700">
          <p>{_('features.highSpeed.numbers.speed')}</p>
          <p>
            <Trans
              id="features.highSpeed.numbers.uptime"
              components={{
                0: <strong className="font-semibold text-slate-900" />,
                1: <Link to="/terms" className={TEXT_LINK_CLASS} />,
                2: <Link to="/status" className={TEXT_LINK_CLASS} />,
              }}
            />
          </p>
          <p>
            <Trans id="features.highSpeed.numbers.guarantee" components={{ 0: <Link to="/features/money-back-guarantee" className={TEXT_LINK_CLASS} /> }} />
          </p>
          <p className="pt-2">
            <Link to="/pricing" className={BUTTON_LINK_CLASS}>
              {_('features.highSpeed.numbers.plans')}
            </Link>
          </p>
        </div>
      </Section>

      <CallToAction />
    </>
  );
}
