import { Link } from 'react-router-dom';
import { PLATFORM_NAMES, PLATFORMS, type Platform } from '../../../../shared/platforms.js';
import { CallToAction, CardGrid, PageHero, Section, type Card, StepCards, type StepCard } from '../../components/content';
import { useConfig } from '../../features/config/config-context';
import { LaptopIcon, MonitorIcon, PhoneIcon, TabletIcon } from '../../components/content/content-icons';

const DEVICES: readonly Card[] = [
  {
    title: 'Smartphones',
    text: 'Stay protected on mobile data and public Wi-Fi alike, with an app that reconnects on its own when your network changes.',
    Icon: PhoneIcon,
  },
  {
    title: 'Laptops',
    text: 'Work safely from cafés, trains, hotels and co-working spaces without wondering who else is on the network.',
    Icon: LaptopIcon,
  },
  {
    title: 'Desktops',
    text: 'Keep the home or office computer private too, including large downloads and video calls.',
    Icon: MonitorIcon,
  },
  {
    title: 'Tablets',
    text: 'Stream, read and browse privately on iPad and Android tablets, at home or on the move.',
    Icon: TabletIcon,
  },
];

const REQUIREMENTS: Record<Platform, string> = {
  windows: 'Windows 10 or 11, 64-bit',
  macos: 'macOS 11 or later, Apple Silicon',
  linux: 'Ubuntu 20.04+, Debian 11+ or Fedora 35+ (x86_64)',
  android: 'Android 6.0 or later',
  ios: 'iOS 15 or later, iPhone and iPad',
};

const STEPS: readonly StepCard[] = [
  { title: 'Get one subscription link', text: 'Every VPN account in your dashboard comes with a single subscription link and a QR code.' },
  { title: 'Install the app on each device', text: 'Download the free, open-source client for every platform you use.' },
  { title: 'Import and connect', text: 'Paste the link or scan the QR code on each device. That is it: all of them share the same subscription.' },
];

export default function MultipleDevicesPage() {
  const { brandName } = useConfig();
  return (
    <>
      <PageHero
        eyebrow="Features"
        title="Protect All Your Devices"
        subtitle={`One ${brandName} subscription covers every device you own: no per-device fees, no juggling of licenses, no limit on how many you connect.`}
      />

      <Section title="Every kind of device" intro="Whatever you are holding, it can go through the same encrypted connection.">
        <CardGrid cards={DEVICES} columns={4} />
      </Section>

      <Section
        tone="muted"
        title="Every major platform"
        intro="Pick your platform for the download links, system requirements and a step-by-step setup guide."
      >
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-5">
          {PLATFORMS.map((platform) => (
            <li key={platform}>
              <Link
                to={`/download/${platform}`}
                className="block h-full rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 hover:ring-indigo-400 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
              >
                <span className="block text-lg font-semibold text-indigo-700 underline underline-offset-2">
                  {PLATFORM_NAMES[platform]}
                </span>
                <span className="mt-2 block text-sm leading-6 text-slate-600">{REQUIREMENTS[platform]}</span>
              </Link>
            </li>
          ))}
        </ul>
      </Section>

      <Section title="One subscription, unlimited devices" intro="Setting up a new device takes about two minutes.">
        <StepCards steps={STEPS} />
        <p className="mt-8 max-w-3xl leading-7 text-slate-600">
          Devices share your plan&apos;s data allowance, and you can see how much has been used at any time in your
          dashboard. Keep your subscription link to yourself: anyone who has it can use your allowance.
        </p>
      </Section>

      <CallToAction title="Protect every screen you own" />
    </>
  );
}
