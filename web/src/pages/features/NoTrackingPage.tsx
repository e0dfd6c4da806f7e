import { Link } from 'react-router-dom';
import { Trans, useLingui } from '@lingui/react';
import { CallToAction, CardGrid, PageHero, Section, type Card } from '../../components/content';
import { UserIcon } from '../../components/icons';
import { useConfig } from '../../features/config/config-context';
import { TEXT_LINK_CLASS } from '../../components/content/links';
import { BanIcon, EyeOffIcon } from '../../components/content/content-icons';

const PROMISES: readonly { titleId: string; textId: string; Icon: Card['Icon'] }[] = [
  { titleId: 'features.noTracking.promise.logs.title', textId: 'features.noTracking.promise.logs.text', Icon: EyeOffIcon },
  { titleId: 'features.noTracking.promise.sale.title', textId: 'features.noTracking.promise.sale.text', Icon: BanIcon },
  { titleId: 'features.noTracking.promise.personal.title', textId: 'features.noTracking.promise.personal.text', Icon: UserIcon },
];

const NOT_RECORDED: readonly string[] = [
  'features.noTracking.never.ip',
  'features.noTracking.never.times',
  'features.noTracking.never.sites',
  'features.noTracking.never.dns',
  'features.noTracking.never.content',
];

/** Each message is "<0>item</0>: why it is kept". */
const RECORDED: readonly string[] = [
  'features.noTracking.kept.email',
  'features.noTracking.kept.accounts',
  'features.noTracking.kept.usage',
  'features.noTracking.kept.payments',
];

export default function NoTrackingPage() {
  const { _ } = useLingui();
  const { brandName } = useConfig();
  return (
    <>
      <PageHero
        eyebrow={_('features.eyebrow')}
        title={_('features.noTracking.hero.title')}
        subtitle={_('features.noTracking.hero.subtitle', { brand: brandName })}
      />

      <Section title={_('features.noTracking.promise.title')}>
        <CardGrid cards={PROMISES.map(({ titleId, textId, Icon }) => ({ title: _(titleId), text: _(textId), Icon }))} />
      </Section>

      <Section tone="muted" title={_('features.noTracking.logs.title')} intro={_('features.noTracking.logs.intro')}>
        <div className="grid gap-6 lg:grid-cols-2">
          <div className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
            <h3 className="text-lg font-semibold text-slate-900">{_('features.noTracking.never.title')}</h3>
            <ul className="mt-4 list-disc space-y-2 ps-6 leading-7 text-slate-700">
              {NOT_RECORDED.map((id) => (
                <li key={id}>{_(id)}</li>
              ))}
            </ul>
          </div>
          <div className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
            <h3 className="text-lg font-semibold text-slate-900">{_('features.noTracking.kept.title')}</h3>
            <ul className="mt-4 list-disc space-y-2 ps-6 leading-7 text-slate-700">
              {RECORDED.map((id) => (
                <li key={id}>
                  <Trans id={id} components={{ 0: <strong className="font-semibold text-slate-900" /> }} />
                </li>
              ))}
            </ul>
          </div>
        </div>
      </Section>

      <Section width="narrow" title={_('features.noTracking.why.title')}>
        <div className="space-y-4 leading-7 text-slate-700">
          <p>{_('features.noTracking.why.neverCollected')}</p>
          <p>
            <Trans
              id="features.noTracking.why.openSource"
              components={{
                0: <Link to="/why-trust-us/open-source" className={TEXT_LINK_CLASS} />,
                1: <Link to="/privacy" className={TEXT_LINK_CLASS} />,
                2: <Link to="/cookies" className={TEXT_LINK_CLASS} />,
              }}
            />
          </p>
          <p>
            <Trans id="features.noTracking.why.anonymous" components={{ 0: <Link to="/why-trust-us/anonymous-accounts" className={TEXT_LINK_CLASS} /> }} />
          </p>
        </div>
      </Section>

      <CallToAction />
    </>
  );
}
