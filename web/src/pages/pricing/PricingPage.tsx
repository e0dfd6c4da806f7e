import { useId, useState } from 'react';
import {
  DEFAULT_BILLING_PERIOD,
  MOST_POPULAR_TIER,
  TIER_DISPLAY_ORDER,
  type BillingPeriod,
} from '../../../../shared/pricing.js';
import { PageHero, Section } from '../../components/content';
import { useAuth } from '../../features/auth/auth-context';
import { useConfig } from '../../features/config/config-context';
import { BillingPeriodToggle } from '../../features/pricing/BillingPeriodToggle';
import { FeatureMatrix } from '../../features/pricing/FeatureMatrix';
import { PricingFaq } from '../../features/pricing/PricingFaq';
import { TierCard } from '../../features/pricing/TierCard';

export default function PricingPage() {
  const { user } = useAuth();
  const [period, setPeriod] = useState<BillingPeriod>(DEFAULT_BILLING_PERIOD);
  const getTo = user ? '/dashboard' : '/login';

  return (
    <>
      <PageHero
        eyebrow="Pricing"
        title="Simple, Honest Pricing"
        subtitle="One subscription for all your devices. Every plan comes with a 30-day money-back guarantee."
      />
      <PlansSection period={period} onPeriodChange={setPeriod} getTo={getTo} />
      <Section
        title="Compare plans"
        intro="Every plan includes the high-speed VPN on unlimited devices, servers in 50+ locations and no connection logs."
        tone="muted"
      >
        <FeatureMatrix tiers={TIER_DISPLAY_ORDER} />
      </Section>
      <Section title="Frequently asked questions" width="narrow">
        <PricingFaq />
      </Section>
      <BusinessOffer />
    </>
  );
}

interface PlansSectionProps {
  period: BillingPeriod;
  onPeriodChange(period: BillingPeriod): void;
  getTo: string;
}

function PlansSection({ period, onPeriodChange, getTo }: PlansSectionProps) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="mx-auto max-w-6xl px-4 py-12 sm:px-6 sm:py-16">
      <div className="flex flex-col items-center gap-6 text-center">
        <h2 id={headingId} className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">
          Choose your plan
        </h2>
        <BillingPeriodToggle value={period} onChange={onPeriodChange} />
      </div>
      <ul className="mt-10 grid gap-6 lg:grid-cols-3">
        {TIER_DISPLAY_ORDER.map((tier) => (
          <li key={tier}>
            <TierCard tier={tier} period={period} popular={tier === MOST_POPULAR_TIER} getTo={getTo} />
          </li>
        ))}
      </ul>
      <p className="mt-6 text-center text-sm text-slate-600">
        Prices in US dollars. Subscriptions renew automatically unless cancelled.
      </p>
    </section>
  );
}

function BusinessOffer() {
  const { supportEmail } = useConfig();
  return (
    <Section title="Buying for a team?" tone="muted" width="narrow">
      <div className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8">
        <p className="leading-7 text-slate-700">
          We offer business plans for teams of 5 or more. Business purchases have a 14-day refund window and a
          minimum of 5 licenses. Tell us how many people you need to protect and we will put together an offer.
        </p>
        <p className="mt-4 leading-7 text-slate-700">
          Write to{' '}
          <a href={`mailto:${supportEmail}`} className="font-semibold break-words text-indigo-700 underline">
            {supportEmail}
          </a>
          .
        </p>
      </div>
    </Section>
  );
}
