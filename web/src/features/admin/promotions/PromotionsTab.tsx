import { adminApi } from '../../../api/admin-endpoints';
import { useAdminResource } from '../useAdminResource';
import { GiftCodesSection } from './GiftCodesSection';
import { PromoCodesSection } from './PromoCodesSection';
import { ReferralsSection } from './ReferralsSection';

/** What the operator grows with: promo codes, gift codes and referrals. */
export function PromotionsTab({ refreshKey }: { refreshKey: number }) {
  const { data: plans } = useAdminResource(adminApi.plans.list, refreshKey);
  const { data: settings } = useAdminResource(adminApi.settings.get, refreshKey);
  const paidPlans = (plans ?? []).filter((plan) => !plan.isTrial && plan.price > 0);
  return (
    <div className="space-y-10">
      <PromoCodesSection refreshKey={refreshKey} plans={paidPlans} />
      <GiftCodesSection refreshKey={refreshKey} plans={(plans ?? []).filter((plan) => !plan.isTrial)} />
      <ReferralsSection refreshKey={refreshKey} currency={settings?.currency ?? 'usd'} />
    </div>
  );
}
