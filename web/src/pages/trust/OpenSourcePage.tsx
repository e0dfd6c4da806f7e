import { Link } from 'react-router-dom';
import { CallToAction, CardGrid, PageHero, Section, type Card } from '../../components/content';
import { DevicesIcon, ShieldIcon } from '../../components/icons';
import { useConfig } from '../../features/config/config-context';
import { ExternalLink, TEXT_LINK_CLASS } from '../../components/content/links';
import { SearchIcon, ServerIcon, UsersIcon } from '../../components/content/content-icons';

interface Repository {
  name: string;
  role: string;
  description: string;
  url: string;
  Icon: typeof ServerIcon;
}

const REPOSITORIES: readonly Repository[] = [
  {
    name: 'Marzneshin',
    role: 'A panel our servers run on',
    description:
      'Marzneshin manages VPN servers and the accounts on them: it creates your VPN account, applies your plan’s data limit and expiry date, and builds the subscription link you import into your app.',
    url: 'https://github.com/marzneshin/marzneshin',
    Icon: ServerIcon,
  },
  {
    name: 'Marzban',
    role: 'A panel our servers run on',
    description:
      'Marzban does the same job with its own design: some of our servers may run it instead of Marzneshin. Your account, limits and subscription link work the same either way.',
    url: 'https://github.com/Gozargah/Marzban',
    Icon: ServerIcon,
  },
  {
    name: 'Hiddify',
    role: 'The client app on your devices',
    description:
      'Hiddify is the app you install on Windows, macOS, Linux, Android or iOS. It imports your subscription link, lets you pick a location and keeps the encrypted tunnel up.',
    url: 'https://github.com/hiddify/hiddify-app',
    Icon: DevicesIcon,
  },
];

const REPOSITORY_LINKS: readonly { label: string; suffix: string }[] = [
  { label: 'Stars', suffix: '/stargazers' },
  { label: 'Forks', suffix: '/forks' },
  { label: 'Contributors', suffix: '/graphs/contributors' },
];

const REASONS: readonly Card[] = [
  {
    title: 'Verifiable, not just promised',
    text: 'Anyone can read exactly what the software does with your connection, instead of relying on marketing copy.',
    Icon: SearchIcon,
  },
  {
    title: 'More eyes on security',
    text: 'Public code is reviewed by researchers and users around the world, so flaws are found and fixed in the open.',
    Icon: ShieldIcon,
  },
  {
    title: 'Built by a community',
    text: 'These projects are developed in public by many contributors, not by a single company behind closed doors.',
    Icon: UsersIcon,
  },
];

const CHIP_LINK_CLASS =
  'inline-block rounded-full bg-indigo-50 px-3 py-1 text-sm font-medium text-indigo-800 underline underline-offset-2 ring-1 ring-indigo-200 hover:bg-indigo-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600';

export default function OpenSourcePage() {
  const { brandName } = useConfig();
  return (
    <>
      <PageHero
        eyebrow="Why trust us"
        title="Open Source"
        subtitle={`The software behind ${brandName} is open for anyone to inspect, audit and improve. You do not have to take our word for how it works.`}
      />

      <Section
        title="The code we rely on"
        intro="Open-source projects do the heavy lifting: a panel on each of our servers, and the app on your devices."
      >
        <ul className="grid gap-6 md:grid-cols-2 lg:grid-cols-3">
          {REPOSITORIES.map((repo) => (
            <li key={repo.name} className="flex flex-col rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
              <div className="flex items-center gap-3">
                <span className="inline-flex size-11 shrink-0 items-center justify-center rounded-xl bg-indigo-50 text-indigo-600">
                  <repo.Icon className="size-6" />
                </span>
                <div>
                  <h3 className="text-lg font-semibold text-slate-900">{repo.name}</h3>
                  <p className="text-sm text-slate-600">{repo.role}</p>
                </div>
              </div>
              <p className="mt-4 flex-1 leading-7 text-slate-600">{repo.description}</p>
              <p className="mt-4 text-sm break-words text-slate-600">
                <ExternalLink href={repo.url}>{repo.url.replace('https://', '')}</ExternalLink>
              </p>
              <ul className="mt-4 flex flex-wrap gap-2" aria-label={`${repo.name} on GitHub`}>
                {REPOSITORY_LINKS.map((link) => (
                  <li key={link.label}>
                    <ExternalLink href={`${repo.url}${link.suffix}`} className={CHIP_LINK_CLASS}>
                      {link.label}
                      <span className="sr-only"> of {repo.name}</span>
                    </ExternalLink>
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
        <p className="mt-6 max-w-3xl text-sm leading-6 text-slate-600">
          Star, fork and contributor counts change every day, so rather than copy numbers that would soon be out of
          date, we link straight to the live figures on GitHub.
        </p>
      </Section>

      <Section tone="muted" title="Why open source matters for a VPN">
        <CardGrid cards={REASONS} />
      </Section>

      <Section width="narrow" title="How to check for yourself">
        <div className="space-y-4 leading-7 text-slate-700">
          <p>
            These repositories are public on GitHub. You can read the source, follow every change in the commit history,
            open issues and see how the maintainers respond. If you find a security problem, report it to the project
            and let us know as well.
          </p>
          <p>
            Read more about our approach on the{' '}
            <Link to="/why-trust-us/code-transparency" className={TEXT_LINK_CLASS}>code transparency</Link> page, and
            see what we do and do not store in our <Link to="/privacy" className={TEXT_LINK_CLASS}>Privacy Policy</Link>.
          </p>
        </div>
      </Section>

      <CallToAction />
    </>
  );
}
