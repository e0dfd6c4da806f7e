import { Link } from 'react-router-dom';
import { CallToAction, CardGrid, PageHero, Section, type Card, StepCards, type StepCard } from '../../components/content';
import { DevicesIcon, ShieldIcon } from '../../components/icons';
import { useConfig } from '../../features/config/config-context';
import NotFoundPage from '../NotFoundPage';
import { BUTTON_LINK_CLASS, TEXT_LINK_CLASS } from '../../components/content/links';
import { AlertIcon, BanIcon, EyeOffIcon, FishhookIcon, LockIcon } from '../../components/content/content-icons';

const THREATS: readonly Card[] = [
  {
    title: 'Malicious websites',
    text: 'Domains known to serve malware, drive-by downloads or cryptojacking scripts are blocked before your browser can load them.',
    Icon: AlertIcon,
  },
  {
    title: 'Phishing pages',
    text: 'Look-alike banking, shopping and login pages are stopped at the door, even when the link arrives by e-mail, text message or chat.',
    Icon: FishhookIcon,
  },
  {
    title: 'Trackers',
    text: 'Requests to known tracking and fingerprinting services are dropped, so fewer companies can follow you from site to site.',
    Icon: EyeOffIcon,
  },
  {
    title: 'Intrusive ads',
    text: 'On the Complete plan, the ad blocker removes ad network requests too, which also makes pages lighter and faster to load.',
    Icon: BanIcon,
  },
];

const STEPS: readonly StepCard[] = [
  {
    title: 'You open a link',
    text: 'Your device asks for the address of the site, and that request travels through the encrypted VPN tunnel.',
  },
  {
    title: 'We check the destination',
    text: 'Our resolver compares the domain with regularly updated lists of malicious, phishing and tracking domains.',
  },
  {
    title: 'Safe sites load, threats don’t',
    text: 'Clean domains resolve normally. Known threats never resolve, so nothing from them reaches your device.',
  },
];

const BENEFITS: readonly Card[] = [
  {
    title: 'Nothing extra to install',
    text: 'Protection works inside the VPN connection itself, so it covers every app on the device: browsers, mail clients and games alike.',
    Icon: DevicesIcon,
  },
  {
    title: 'Private by design',
    text: 'Lookups are checked in memory and are not logged. We never build a history of the sites you visit.',
    Icon: LockIcon,
  },
  {
    title: 'Always up to date',
    text: 'Block lists are refreshed continuously, so new phishing campaigns are covered without any updates on your side.',
    Icon: ShieldIcon,
  },
];

export default function ThreatProtectionPage() {
  const { brandName, protectionFeatures } = useConfig();
  // The server answers 404 for this page when the operator does not offer it; the router agrees.
  if (!protectionFeatures) return <NotFoundPage />;
  return (
    <>
      <PageHero
        eyebrow="Features"
        title="Advanced Threat Protection"
        subtitle={`${brandName} stops malicious sites, phishing pages and trackers while you browse, before they ever reach your phone or computer.`}
      />

      <Section
        title="What it blocks"
        intro="Threat protection filters connections at the network level, so it protects you in every app, not just in one browser."
      >
        <CardGrid cards={THREATS} columns={4} />
      </Section>

      <Section tone="muted" title="How it works">
        <StepCards steps={STEPS} />
      </Section>

      <Section title="Why filtering in the tunnel is better">
        <CardGrid cards={BENEFITS} />
      </Section>

      <Section tone="muted" width="narrow" title="Which plans include it">
        <div className="space-y-4 leading-7 text-slate-700">
          <p>
            Threat protection is part of the <strong className="font-semibold text-slate-900">Plus</strong> and{' '}
            <strong className="font-semibold text-slate-900">Complete</strong> plans. Complete adds anti-malware,
            browsing protection and an ad blocker on top. The Basic plan gives you the fast, encrypted VPN on its own.
          </p>
          <p>
            Threat protection lowers your risk; it does not replace common sense or the security updates for your
            operating system and apps. Keep those current, and be wary of files and links you did not expect. If you
            want to know more about what we keep and what we don&apos;t, read our{' '}
            <Link to="/features/no-tracking" className={TEXT_LINK_CLASS}>no-tracking promise</Link>.
          </p>
          <p className="pt-2">
            <Link to="/pricing" className={BUTTON_LINK_CLASS}>Compare plans</Link>
          </p>
        </div>
      </Section>

      <CallToAction />
    </>
  );
}
