import { Link } from 'react-router-dom';
import { Trans, useLingui } from '@lingui/react';
import { CallToAction, CardGrid, PageHero, Section, type Card } from '../../components/content';
import { BoltIcon, GlobeIcon, ShieldIcon } from '../../components/icons';
import { useConfig, useLocationsClaim } from '../../features/config/config-context';
import { TEXT_LINK_CLASS } from '../../components/content/links';
import { MapPinIcon } from '../../components/content/content-icons';

interface Region {
  nameId: string;
  summaryId: string;
  /** Message ids of the countries' names. */
  countryIds: readonly string[];
}

const country = (code: string) => `features.locations.country.${code}`;

const REGIONS: readonly Region[] = [
  {
    nameId: 'features.locations.region.northAmerica.name',
    summaryId: 'features.locations.region.northAmerica.summary',
    countryIds: ['US', 'CA', 'MX', 'CR', 'PA'].map(country),
  },
  {
    nameId: 'features.locations.region.europe.name',
    summaryId: 'features.locations.region.europe.summary',
    countryIds: [
      'DE',
      'NL',
      'GB',
      'FR',
      'SE',
      'CH',
      'ES',
      'IT',
      'PL',
      'AT',
      'BE',
      'DK',
      'NO',
      'FI',
      'IE',
      'PT',
      'CZ',
      'RO',
      'HU',
      'GR',
      'BG',
      'RS',
      'HR',
      'EE',
      'LV',
      'LT',
      'IS',
      'LU',
    ].map(country),
  },
  {
    nameId: 'features.locations.region.asiaPacific.name',
    summaryId: 'features.locations.region.asiaPacific.summary',
    countryIds: ['JP', 'SG', 'AU', 'KR', 'IN', 'HK', 'TW', 'NZ', 'MY', 'TH', 'ID', 'PH', 'VN'].map(country),
  },
  {
    nameId: 'features.locations.region.middleEast.name',
    summaryId: 'features.locations.region.middleEast.summary',
    countryIds: ['AE', 'IL', 'TR', 'QA', 'BH', 'JO'].map(country),
  },
];

const REASONS: readonly { titleId: string; textId: string; Icon: Card['Icon'] }[] = [
  { titleId: 'features.locations.reason.speed.title', textId: 'features.locations.reason.speed.text', Icon: BoltIcon },
  { titleId: 'features.locations.reason.privacy.title', textId: 'features.locations.reason.privacy.text', Icon: ShieldIcon },
  { titleId: 'features.locations.reason.content.title', textId: 'features.locations.reason.content.text', Icon: GlobeIcon },
];

const STRONG = <strong className="font-semibold text-slate-900" />;

export default function LocationsPage() {
  const { _ } = useLingui();
  const { brandName } = useConfig();
  const locationsClaim = useLocationsClaim();
  return (
    <>
      <PageHero
        eyebrow={_('features.eyebrow')}
        title={_('features.locations.hero.title', { locations: locationsClaim })}
        subtitle={_('features.locations.hero.subtitle', { brand: brandName, locations: locationsClaim })}
      />

      <Section title={_('features.locations.servers.title')} intro={_('features.locations.servers.intro')}>
        <ul className="grid gap-6 md:grid-cols-2">
          {REGIONS.map((region) => (
            <li key={region.nameId} className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
              <div className="flex items-center gap-3">
                <span className="inline-flex size-11 shrink-0 items-center justify-center rounded-xl bg-indigo-50 text-indigo-600">
                  <MapPinIcon className="size-6" />
                </span>
                <div>
                  <h3 className="text-lg font-semibold text-slate-900">{_(region.nameId)}</h3>
                </div>
              </div>
              <p className="mt-4 leading-7 text-slate-600">{_(region.summaryId)}</p>
              <ul className="mt-4 grid grid-cols-1 gap-x-4 gap-y-1.5 text-slate-700 min-[400px]:grid-cols-2">
                {region.countryIds.map((countryId) => (
                  <li key={countryId} className="flex items-start gap-2">
                    <span className="mt-2.5 size-1.5 shrink-0 rounded-full bg-indigo-500" aria-hidden="true" />
                    {_(countryId)}
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
        <p className="mt-8 max-w-3xl leading-7 text-slate-600">
          <Trans
            id="features.locations.servers.note"
            components={{
              0: <Link to="/pricing" className={TEXT_LINK_CLASS} />,
              1: <Link to="/status" className={TEXT_LINK_CLASS} />,
            }}
          />
        </p>
      </Section>

      <Section tone="muted" title={_('features.locations.reasons.title')}>
        <CardGrid cards={REASONS.map(({ titleId, textId, Icon }) => ({ title: _(titleId), text: _(textId), Icon }))} />
      </Section>

      <Section width="narrow" title={_('features.locations.choosing.title')} intro={_('features.locations.choosing.intro')}>
        <ul className="list-disc space-y-3 ps-6 leading-7 text-slate-700">
          <li>
            <Trans id="features.locations.choosing.browsing" components={{ 0: STRONG }} />
          </li>
          <li>
            <Trans id="features.locations.choosing.streaming" components={{ 0: STRONG }} />
          </li>
          <li>
            <Trans id="features.locations.choosing.slow" components={{ 0: STRONG }} />
          </li>
        </ul>
      </Section>

      <CallToAction title={_('features.locations.cta.title')} text={_('features.locations.cta.text')} />
    </>
  );
}
