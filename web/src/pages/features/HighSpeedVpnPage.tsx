import { Link } from 'react-router-dom';
import { CallToAction, CardGrid, PageHero, Section, type Card } from '../../components/content';
import { BoltIcon, GlobeIcon } from '../../components/icons';
import { withLocations } from '../../../../shared/config.js';
import { useConfig } from '../../features/config/config-context';
import { BUTTON_LINK_CLASS, TEXT_LINK_CLASS } from '../../components/content/links';
import { GaugeIcon, MonitorIcon, PhoneIcon, ServerIcon } from '../../components/content/content-icons';

const STATS: readonly { value: string; label: string; note: string }[] = [
  { value: '10 Gbps', label: 'server ports', note: 'Plenty of headroom, even at peak hours.' },
  { value: '< 50 ms', label: 'typical latency', note: 'To the nearest location for most users.' },
  { value: '99.9%', label: 'uptime target', note: 'What we aim for; see the note below.' },
];

const REASONS: readonly Card[] = [
  {
    title: '10 Gbps network ports',
    text: 'Our servers sit on 10 Gbps uplinks, so a busy evening on one server does not turn into buffering for everyone on it.',
    Icon: ServerIcon,
  },
  {
    title: 'Tuned to your location',
    text: 'With {locations} locations, there is usually a server close to you. Shorter routes mean lower latency and fewer hops where things can slow down.',
    Icon: GlobeIcon,
  },
  {
    title: 'Lightweight, modern protocols',
    text: 'The client uses efficient, modern tunnelling protocols that add little overhead and recover quickly when you switch networks.',
    Icon: BoltIcon,
  },
  {
    title: 'Capacity we watch',
    text: 'We monitor load on every server and add capacity where it is needed, instead of packing more users onto the same machines.',
    Icon: GaugeIcon,
  },
];

const USES: readonly Card[] = [
  { title: 'Streaming', text: 'HD and 4K video without constant buffering, at home or abroad.', Icon: MonitorIcon },
  { title: 'Gaming', text: 'Low ping to a nearby server keeps online games responsive.', Icon: BoltIcon },
  { title: 'Work and calls', text: 'Stable video calls and quick uploads of large files to the cloud.', Icon: PhoneIcon },
];

export default function HighSpeedVpnPage() {
  const { brandName, locationsClaim } = useConfig();
  const reasons = REASONS.map((reason) => ({ ...reason, text: typeof reason.text === 'string' ? withLocations(reason.text, locationsClaim) : reason.text }));
  return (
    <>
      <PageHero
        eyebrow="Features"
        title="Lightning-Fast VPN"
        subtitle={`Privacy should not mean waiting. ${brandName} is built for speed, so you can stream, game and work with the VPN switched on all day.`}
      >
        <ul className="mx-auto grid max-w-3xl gap-4 sm:grid-cols-3">
          {STATS.map((stat) => (
            <li key={stat.value} className="rounded-2xl bg-white/10 p-5 ring-1 ring-white/20">
              <span className="block text-3xl font-extrabold">{stat.value}</span>
              <span className="mt-1 block font-semibold text-indigo-100">{stat.label}</span>
              <span className="mt-2 block text-sm text-indigo-100">{stat.note}</span>
            </li>
          ))}
        </ul>
      </PageHero>

      <Section title="What makes it fast" intro="Speed is not one trick. It comes from the hardware, the network and the software working together.">
        <CardGrid cards={reasons} columns={2} />
      </Section>

      <Section tone="muted" title="Fast enough for everything you do">
        <CardGrid cards={USES} />
      </Section>

      <Section width="narrow" title="About these numbers">
        <div className="space-y-4 leading-7 text-slate-700">
          <p>
            Your speed through a VPN depends on more than our servers: your own internet connection, your Wi-Fi, the
            distance to the server you pick and the site you are visiting all play a part. Latency under 50 ms is what
            most users see when they connect to the location nearest to them; a server on another continent will
            naturally be slower.
          </p>
          <p>
            <strong className="font-semibold text-slate-900">99.9% uptime is a target, not a guarantee.</strong> We
            design and monitor the service to meet it, but maintenance and events outside our control can cause
            interruptions. Our <Link to="/terms" className={TEXT_LINK_CLASS}>Terms of Service</Link> explain this in
            full, and the <Link to="/status" className={TEXT_LINK_CLASS}>service status page</Link> shows how every
            region is doing right now.
          </p>
          <p>
            Every plan includes the same fast network and a{' '}
            <Link to="/features/money-back-guarantee" className={TEXT_LINK_CLASS}>30-day money-back guarantee</Link>,
            so you can measure the speed yourself, risk-free.
          </p>
          <p className="pt-2">
            <Link to="/pricing" className={BUTTON_LINK_CLASS}>See plans and pricing</Link>
          </p>
        </div>
      </Section>

      <CallToAction />
    </>
  );
}
