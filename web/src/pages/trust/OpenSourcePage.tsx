import { Link } from 'react-router-dom';
import { Trans, useLingui } from '@lingui/react';
import { CallToAction, CardGrid, PageHero, Section, type Card } from '../../components/content';
import { DevicesIcon, ShieldIcon } from '../../components/icons';
import { useConfig } from '../../features/config/config-context';
import { ExternalLink, TEXT_LINK_CLASS } from '../../components/content/links';
import { SearchIcon, ServerIcon, UsersIcon } from '../../components/content/content-icons';

interface Repository {
  name: string;
  roleId: string;
  descriptionId: string;
  url: string;
  Icon: typeof ServerIcon;
}

const REPOSITORIES: readonly Repository[] = [
  {
    name: 'Marzneshin',
    roleId: 'trust.openSource.repo.role.panel',
    descriptionId: 'trust.openSource.repo.marzneshin',
    url: 'https://github.com/marzneshin/marzneshin',
    Icon: ServerIcon,
  },
  {
    name: 'Marzban',
    roleId: 'trust.openSource.repo.role.panel',
    descriptionId: 'trust.openSource.repo.marzban',
    url: 'https://github.com/Gozargah/Marzban',
    Icon: ServerIcon,
  },
  {
    name: 'Hiddify',
    roleId: 'trust.openSource.repo.role.client',
    descriptionId: 'trust.openSource.repo.hiddify',
    url: 'https://github.com/hiddify/hiddify-app',
    Icon: DevicesIcon,
  },
];

/** Each label is "Stars<0> of {name}</0>": the tag holds the words only screen readers hear. */
const REPOSITORY_LINKS: readonly { labelId: string; suffix: string }[] = [
  { labelId: 'trust.openSource.repo.stars', suffix: '/stargazers' },
  { labelId: 'trust.openSource.repo.forks', suffix: '/forks' },
  { labelId: 'trust.openSource.repo.contributors', suffix: '/graphs/contributors' },
];

const REASONS: readonly { titleId: string; textId: string; Icon: Card['Icon'] }[] = [
  { titleId: 'trust.openSource.reason.verifiable.title', textId: 'trust.openSource.reason.verifiable.text', Icon: SearchIcon },
  { titleId: 'trust.openSource.reason.security.title', textId: 'trust.openSource.reason.security.text', Icon: ShieldIcon },
  { titleId: 'trust.openSource.reason.community.title', textId: 'trust.openSource.reason.community.text', Icon: UsersIcon },
];

const CHIP_LINK_CLASS =
  'inline-block rounded-full bg-indigo-50 px-3 py-1 text-sm font-medium text-indigo-800 underline underline-offset-2 ring-1 ring-indigo-200 hover:bg-indigo-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600';

export default function OpenSourcePage() {
  const { _ } = useLingui();
  const { brandName } = useConfig();
  return (
    <>
      <PageHero eyebrow={_('trust.eyebrow')} title={_('trust.openSource.hero.title')} subtitle={_('trust.openSource.hero.subtitle', { brand: brandName })} />

      <Section title={_('trust.openSource.code.title')} intro={_('trust.openSource.code.intro')}>
        <ul className="grid gap-6 md:grid-cols-2 lg:grid-cols-3">
          {REPOSITORIES.map((repo) => (
            <li key={repo.name} className="flex flex-col rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
              <div className="flex items-center gap-3">
                <span className="inline-flex size-11 shrink-0 items-center justify-center rounded-xl bg-indigo-50 text-indigo-600">
                  <repo.Icon className="size-6" />
                </span>
                <div>
                  <h3 className="text-lg font-semibold text-slate-900">{repo.name}</h3>
                  <p className="text-sm text-slate-600">{_(repo.roleId)}</p>
                </div>
              </div>
              <p className="mt-4 flex-1 leading-7 text-slate-600">{_(repo.descriptionId)}</p>
              <p className="mt-4 text-sm break-words text-slate-600">
                <ExternalLink href={repo.url}>{repo.url.replace('https://', '')}</ExternalLink>
              </p>
              <ul className="mt-4 flex flex-wrap gap-2" aria-label={_('trust.openSource.repo.linksLabel', { name: repo.name })}>
                {REPOSITORY_LINKS.map((link) => (
                  <li key={link.suffix}>
                    <ExternalLink href={`${repo.url}${link.suffix}`} className={CHIP_LINK_CLASS}>
                      <Trans id={link.labelId} values={{ name: repo.name }} components={{ 0: <span className="sr-only" /> }} />
                    </ExternalLink>
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
        <p className="mt-6 max-w-3xl text-sm leading-6 text-slate-600">{_('trust.openSource.code.counts')}</p>
      </Section>

      <Section tone="muted" title={_('trust.openSource.reasons.title')}>
        <CardGrid cards={REASONS.map(({ titleId, textId, Icon }) => ({ title: _(titleId), text: _(textId), Icon }))} />
      </Section>

      <Section width="narrow" title={_('trust.openSource.check.title')}>
        <div className="space-y-4 leading-7 text-slate-700">
          <p>{_('trust.openSource.check.repositories')}</p>
          <p>
            <Trans
              id="trust.openSource.check.more"
              components={{
                0: <Link to="/why-trust-us/code-transparency" className={TEXT_LINK_CLASS} />,
                1: <Link to="/privacy" className={TEXT_LINK_CLASS} />,
              }}
            />
          </p>
        </div>
      </Section>

      <CallToAction />
    </>
  );
}
