import { Trans, useLingui } from '@lingui/react';
import { useId, useMemo, useState, type ComponentType, type ReactNode, type SVGProps } from 'react';
import { Link } from 'react-router-dom';
import { buildPricingTable, type PricingPeriod } from '../../../../shared/pricing.js';
import { CardGrid, PageHero, Section } from '../../components/content';
import { CardIcon, ClockIcon, EyeOffIcon, LaptopIcon, LockIcon } from '../../components/content/content-icons';
import { RefundIcon } from '../../components/icons';
import { Loading } from '../../components/Loading';
import { useAuth } from '../../features/auth/auth-context';
import { useConfig, useCurrencyCode } from '../../features/config/config-context';
import { usePlanCatalog } from '../../features/plans/plan-catalog-context';
import { BillingPeriodToggle } from '../../features/pricing/BillingPeriodToggle';
import { getPlanHref } from '../../features/pricing/plan-links';
import { PricingFaq } from '../../features/pricing/PricingFaq';
import { periodLabel } from '../../features/pricing/plan-text';
import { TierCard } from '../../features/pricing/TierCard';
import { useFormat } from '../../i18n/format';

/** A card's title and text as message ids (pricing namespace). */
interface CardText {
  titleId: string;
  textId: string;
  Icon: ComponentType<SVGProps<SVGSVGElement>>;
  /** Said only while the store takes payment (no card checkout to speak of before a provider is on). */
  claim?: 'payment';
}

/** True of every plan, whatever the operator sells (the prices and data are on the cards). */
const EVERY_PLAN: readonly CardText[] = [
  { titleId: 'pricing.everyPlan.noLogs.title', textId: 'pricing.everyPlan.noLogs.text', Icon: EyeOffIcon },
  { titleId: 'pricing.everyPlan.devices.title', textId: 'pricing.everyPlan.devices.text', Icon: LaptopIcon },
  { titleId: 'pricing.everyPlan.refund.title', textId: 'pricing.everyPlan.refund.text', Icon: RefundIcon },
  { titleId: 'pricing.everyPlan.noSurprises.title', textId: 'pricing.everyPlan.noSurprises.text', Icon: ClockIcon },
  { titleId: 'pricing.everyPlan.anonymous.title', textId: 'pricing.everyPlan.anonymous.text', Icon: LockIcon },
  { titleId: 'pricing.everyPlan.secureCheckout.title', textId: 'pricing.everyPlan.secureCheckout.text', Icon: CardIcon, claim: 'payment' },
];

export default function PricingPage() {
  const { _ } = useLingui();
  const everyPlan = EVERY_PLAN.map(({ titleId, textId, Icon, claim }) => ({ title: _(titleId), text: _(textId), Icon, claim }));
  return (
    <>
      <PageHero eyebrow={_('pricing.hero.eyebrow')} title={_('pricing.hero.title')} subtitle={_('pricing.hero.subtitle')} />
      <PlansSection />
      <Section title={_('pricing.everyPlan.heading')} tone="muted">
        <CardGrid cards={everyPlan} columns={3} />
      </Section>
      <Section title={_('pricing.faq.heading')} width="narrow">
        <PricingFaq />
      </Section>
      <BusinessOffer />
    </>
  );
}

/** The grid's columns for the number of tier cards, so one or two cards sit centred. */
const GRID_BY_COUNT: Record<number, string> = {
  1: 'mx-auto max-w-md',
  2: 'mx-auto max-w-4xl md:grid-cols-2',
  3: 'lg:grid-cols-3',
};

/**
 * The plans on sale, grouped into tiers, for one period at a time. Every period's cards are in the
 * HTML (the others hidden), so the whole price list is in the page as served.
 */
function PlansSection() {
  const { _ } = useLingui();
  const currency = useCurrencyCode();
  const format = useFormat();
  const headingId = useId();
  const { user } = useAuth();
  const { plans, failed } = usePlanCatalog();
  const table = useMemo(() => buildPricingTable(plans ?? []), [plans]);
  const [chosen, setChosen] = useState<string | null>(null);
  const current = table.periods.some((period) => period.key === chosen) ? chosen : table.defaultPeriodKey;

  return (
    <section aria-labelledby={headingId} className="mx-auto max-w-6xl px-4 py-12 sm:px-6 sm:py-16">
      <div className="flex flex-col items-center gap-6 text-center">
        <h2 id={headingId} className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">
          {_('pricing.plans.heading')}
        </h2>
        {table.periods.length > 1 && current && (
          <BillingPeriodToggle
            periods={table.periods.map((period) => ({ key: period.key, label: periodLabel(_, format, period) }))}
            value={current}
            onChange={setChosen}
          />
        )}
      </div>
      {plans === null && !failed && <Loading />}
      {plans === null && failed && <Notice>{_('pricing.plans.loadFailed')}</Notice>}
      {plans !== null && table.periods.length === 0 && (
        <Notice>
          <Trans id="pricing.plans.noneOnSale" components={{ 0: <Link to="/contact" className="font-semibold text-indigo-700 underline" /> }} />
        </Notice>
      )}
      {table.periods.map((period) => (
        <PeriodCards key={period.key} period={period} hidden={period.key !== current} signedIn={user !== null} />
      ))}
      {table.periods.length > 0 && (
        <p className="mx-auto mt-8 max-w-2xl text-center text-sm leading-6 text-slate-600">{_('pricing.plans.note', { currency })}</p>
      )}
    </section>
  );
}

function PeriodCards({ period, hidden, signedIn }: { period: PricingPeriod; hidden: boolean; signedIn: boolean }) {
  const { _ } = useLingui();
  const format = useFormat();
  const columns = GRID_BY_COUNT[period.offers.length] ?? 'md:grid-cols-2 xl:grid-cols-4';
  return (
    <ul
      hidden={hidden}
      aria-label={_('pricing.plans.forPeriod', { period: periodLabel(_, format, period) })}
      className={`mt-12 grid gap-8 lg:gap-6 ${columns}`}
    >
      {period.offers.map((offer) => (
        <li key={offer.plan.id}>
          {/* A tier without a plan of this length shows its nearest plan, priced and named for that plan's own period. */}
          <TierCard offer={offer} period={offer.period} href={getPlanHref(offer.plan.id, signedIn)} />
        </li>
      ))}
    </ul>
  );
}

function Notice({ children }: { children: ReactNode }) {
  return <p className="mx-auto mt-10 max-w-xl rounded-2xl bg-white p-6 text-center text-slate-600 shadow-sm ring-1 ring-slate-200">{children}</p>;
}

function BusinessOffer() {
  const { _ } = useLingui();
  const { supportEmail } = useConfig();
  return (
    <Section title={_('pricing.business.heading')} tone="muted" width="narrow">
      <div className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8">
        <p className="leading-7 text-slate-700">{_('pricing.business.text')}</p>
        <p className="mt-4 leading-7 text-slate-700">
          <Trans
            id="pricing.business.writeTo"
            values={{ email: supportEmail }}
            components={{ 0: <a href={`mailto:${supportEmail}`} dir="ltr" className="font-semibold break-words text-indigo-700 underline" /> }}
          />
        </p>
      </div>
    </Section>
  );
}
