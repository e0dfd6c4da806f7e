import { Link } from 'react-router-dom';
import { useLingui } from '@lingui/react';
import { PLATFORM_NAMES, PLATFORMS, type Platform } from '../../../../shared/platforms.js';
import { CallToAction, CardGrid, PageHero, Section, type Card, StepCards } from '../../components/content';
import { useConfig } from '../../features/config/config-context';
import { LaptopIcon, MonitorIcon, PhoneIcon, TabletIcon } from '../../components/content/content-icons';

const DEVICES: readonly { titleId: string; textId: string; Icon: Card['Icon'] }[] = [
  { titleId: 'features.devices.device.phones.title', textId: 'features.devices.device.phones.text', Icon: PhoneIcon },
  { titleId: 'features.devices.device.laptops.title', textId: 'features.devices.device.laptops.text', Icon: LaptopIcon },
  { titleId: 'features.devices.device.desktops.title', textId: 'features.devices.device.desktops.text', Icon: MonitorIcon },
  { titleId: 'features.devices.device.tablets.title', textId: 'features.devices.device.tablets.text', Icon: TabletIcon },
];

/** Message ids of each platform's system requirements. */
const REQUIREMENTS: Record<Platform, string> = {
  windows: 'features.devices.requirements.windows',
  macos: 'features.devices.requirements.macos',
  linux: 'features.devices.requirements.linux',
  android: 'features.devices.requirements.android',
  ios: 'features.devices.requirements.ios',
};

const STEPS: readonly { titleId: string; textId: string }[] = [
  { titleId: 'features.devices.step.link.title', textId: 'features.devices.step.link.text' },
  { titleId: 'features.devices.step.install.title', textId: 'features.devices.step.install.text' },
  { titleId: 'features.devices.step.import.title', textId: 'features.devices.step.import.text' },
];

export default function MultipleDevicesPage() {
  const { _ } = useLingui();
  const { brandName } = useConfig();
  return (
    <>
      <PageHero eyebrow={_('features.eyebrow')} title={_('features.devices.hero.title')} subtitle={_('features.devices.hero.subtitle', { brand: brandName })} />

      <Section title={_('features.devices.devices.title')} intro={_('features.devices.devices.intro')}>
        <CardGrid cards={DEVICES.map(({ titleId, textId, Icon }) => ({ title: _(titleId), text: _(textId), Icon }))} columns={4} />
      </Section>

      <Section tone="muted" title={_('features.devices.platforms.title')} intro={_('features.devices.platforms.intro')}>
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-5">
          {PLATFORMS.map((platform) => (
            <li key={platform}>
              <Link
                to={`/download/${platform}`}
                className="block h-full rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 hover:ring-indigo-400 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
              >
                <span className="block text-lg font-semibold text-indigo-700 underline underline-offset-2">{PLATFORM_NAMES[platform]}</span>
                <span className="mt-2 block text-sm leading-6 text-slate-600">{_(REQUIREMENTS[platform])}</span>
              </Link>
            </li>
          ))}
        </ul>
      </Section>

      <Section title={_('features.devices.setup.title')} intro={_('features.devices.setup.intro')}>
        <StepCards steps={STEPS.map(({ titleId, textId }) => ({ title: _(titleId), text: _(textId) }))} />
        <p className="mt-8 max-w-3xl leading-7 text-slate-600">{_('features.devices.setup.allowance')}</p>
      </Section>

      <CallToAction title={_('features.devices.cta.title')} />
    </>
  );
}
