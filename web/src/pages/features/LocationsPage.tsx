import { Link } from 'react-router-dom';
import { CallToAction, CardGrid, PageHero, Section, type Card } from '../../components/content';
import { BoltIcon, GlobeIcon, ShieldIcon } from '../../components/icons';
import { useConfig } from '../../features/config/config-context';
import { TEXT_LINK_CLASS } from '../../components/content/links';
import { MapPinIcon } from '../../components/content/content-icons';

interface Region {
  name: string;
  summary: string;
  countries: readonly string[];
}

const REGIONS: readonly Region[] = [
  {
    name: 'North America',
    summary: 'Coast-to-coast coverage in the United States plus our neighbours north and south.',
    countries: ['United States', 'Canada', 'Mexico', 'Costa Rica', 'Panama'],
  },
  {
    name: 'Europe',
    summary: 'Our densest region, from Iceland to the Balkans, with several major internet exchanges.',
    countries: [
      'Germany', 'Netherlands', 'United Kingdom', 'France', 'Sweden', 'Switzerland', 'Spain', 'Italy',
      'Poland', 'Austria', 'Belgium', 'Denmark', 'Norway', 'Finland', 'Ireland', 'Portugal',
      'Czech Republic', 'Romania', 'Hungary', 'Greece', 'Bulgaria', 'Serbia', 'Croatia', 'Estonia',
      'Latvia', 'Lithuania', 'Iceland', 'Luxembourg',
    ],
  },
  {
    name: 'Asia Pacific',
    summary: 'Low-latency routes across East and South-East Asia, India and Oceania.',
    countries: [
      'Japan', 'Singapore', 'Australia', 'South Korea', 'India', 'Hong Kong', 'Taiwan', 'New Zealand',
      'Malaysia', 'Thailand', 'Indonesia', 'Philippines', 'Vietnam',
    ],
  },
  {
    name: 'Middle East',
    summary: 'Servers close to the Gulf and the eastern Mediterranean.',
    countries: ['United Arab Emirates', 'Israel', 'Turkey', 'Qatar', 'Bahrain', 'Jordan'],
  },
];


const REASONS: readonly Card[] = [
  {
    title: 'Speed close to home',
    text: 'The shorter the distance between you and the server, the lower the latency. Picking a nearby location keeps browsing, calls and games responsive.',
    Icon: BoltIcon,
  },
  {
    title: 'Privacy on the road',
    text: 'On hotel, airport or café Wi-Fi, connect to any location and your traffic leaves the network encrypted, out of reach of whoever runs the hotspot.',
    Icon: ShieldIcon,
  },
  {
    title: 'Content while travelling',
    text: 'Connect through your home country to keep using the services and sites you already pay for while you are abroad.',
    Icon: GlobeIcon,
  },
];

export default function LocationsPage() {
  const { brandName, locationsClaim } = useConfig();
  return (
    <>
      <PageHero
        eyebrow="Features"
        title={`${locationsClaim} Global Locations`}
        subtitle={`${brandName} runs servers in ${locationsClaim} locations around the world, so there is almost always a fast location near you, and one wherever you need to appear.`}
      />

      <Section
        title="Where our servers are"
        intro="Every location is listed in your client app as soon as you import your subscription link. Switch between them as often as you like: there is no limit and no extra charge."
      >
        <ul className="grid gap-6 md:grid-cols-2">
          {REGIONS.map((region) => (
            <li key={region.name} className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
              <div className="flex items-center gap-3">
                <span className="inline-flex size-11 shrink-0 items-center justify-center rounded-xl bg-indigo-50 text-indigo-600">
                  <MapPinIcon className="size-6" />
                </span>
                <div>
                  <h3 className="text-lg font-semibold text-slate-900">{region.name}</h3>
                </div>
              </div>
              <p className="mt-4 leading-7 text-slate-600">{region.summary}</p>
              <ul className="mt-4 grid grid-cols-1 gap-x-4 gap-y-1.5 text-slate-700 min-[400px]:grid-cols-2">
                {region.countries.map((country) => (
                  <li key={country} className="flex items-start gap-2">
                    <span className="mt-2.5 size-1.5 shrink-0 rounded-full bg-indigo-500" aria-hidden="true" />
                    {country}
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
        <p className="mt-8 max-w-3xl leading-7 text-slate-600">
          We add and retire servers as demand changes, so this list is a snapshot rather than a promise for
          every plan. Some plans cover a selection of locations; the plan card on the{' '}
          <Link to="/pricing" className={TEXT_LINK_CLASS}>pricing page</Link> and in your dashboard says which. You
          can also check the health of each region on our{' '}
          <Link to="/status" className={TEXT_LINK_CLASS}>service status page</Link>.
        </p>
      </Section>

      <Section tone="muted" title="Why the location matters">
        <CardGrid cards={REASONS} />
      </Section>

      <Section
        width="narrow"
        title="Choosing the right server"
        intro="A few rules of thumb that work for most people:"
      >
        <ul className="list-disc space-y-3 pl-6 leading-7 text-slate-700">
          <li>
            <strong className="font-semibold text-slate-900">For everyday browsing</strong>, choose the country you
            are in or its closest neighbour. Your client app can also test the latency of each location for you.
          </li>
          <li>
            <strong className="font-semibold text-slate-900">For streaming and large downloads</strong>, stay within
            your region: a server one border away is usually faster than one on another continent.
          </li>
          <li>
            <strong className="font-semibold text-slate-900">If a connection feels slow</strong>, switch to another
            location in the same region. It takes a tap and never costs anything.
          </li>
        </ul>
      </Section>

      <CallToAction title="Connect from anywhere" text="Try every location free: start a trial with nothing but your e-mail address." />
    </>
  );
}
