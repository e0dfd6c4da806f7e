import { useLingui } from '@lingui/react';
import { useLocation } from 'react-router-dom';
import type { AdminSettings } from '../../../../shared/app-settings.js';
import type { AdminPlan } from '../../../../shared/plans.js';
import { adminApi } from '../../api/admin-endpoints';
import { Loading } from '../../components/Loading';
import { AlertBox } from './AlertBox';
import { CardPaymentSettingsForm } from './CardPaymentSettingsForm';
import { CryptoPaymentSettingsForm } from './CryptoPaymentSettingsForm';
import { CryptopayPaymentSettingsForm } from './CryptopayPaymentSettingsForm';
import { YookassaPaymentSettingsForm } from './YookassaPaymentSettingsForm';
import { CurrencySettingsForm } from './CurrencySettingsForm';
import { DeviceSettingsForm } from './DeviceSettingsForm';
import { SubscriptionHeadersForm } from './SubscriptionHeadersForm';
import { SubscriptionDomainsForm } from './SubscriptionDomainsForm';
import { WalletSettingsForm } from './WalletSettingsForm';
import { GeneralSettingsForm } from './GeneralSettingsForm';
import { TrialPromiseForm } from './TrialPromiseForm';
import { ProviderAccountsList } from './ProviderAccountsList';
import { RenewalSettingsForm } from './RenewalSettingsForm';
import { SiteContentSettingsForm } from './SiteContentSettingsForm';
import { RetentionSettingsForm } from './RetentionSettingsForm';
import { SignInLimitsSettingsForm } from './SignInLimitsSettingsForm';
import { StaffPasskeySettingsForm } from './passkeys/StaffPasskeySettingsForm';
import { useAdminResource } from './useAdminResource';
import { SettingsSectionNav } from './SettingsSectionNav';
import { settingsSectionAt, type SettingsSectionId } from './settings-sections';
import { can } from '../../../../shared/staff.js';
import { useAuth } from '../auth/auth-context';

export interface SettingsData {
  settings: AdminSettings;
  plans: AdminPlan[];
}

async function loadSettingsData(signal: AbortSignal): Promise<SettingsData> {
  const [settings, plans] = await Promise.all([adminApi.settings.get(signal), adminApi.plans.list(signal)]);
  return { settings, plans };
}

const loadCardSettings = (signal: AbortSignal) => adminApi.payments.getCard(signal);
const loadCryptoSettings = (signal: AbortSignal) => adminApi.payments.getCrypto(signal);
const loadYookassaSettings = (signal: AbortSignal) => adminApi.payments.getYookassa(signal);
const loadCryptopaySettings = (signal: AbortSignal) => adminApi.payments.getCryptopay(signal);

/** The YooKassa shop, loaded apart like the other providers. */
function YookassaSettingsSection({ refreshKey }: { refreshKey: number }) {
  const { _ } = useLingui();
  const { data, loadState } = useAdminResource(loadYookassaSettings, refreshKey);
  if (!data) return loadState === 'failed' ? <AlertBox>{_('adminSettings.yookassa.loadFailed')}</AlertBox> : <Loading />;
  return (
    <div className="space-y-4">
      <YookassaPaymentSettingsForm key={JSON.stringify(data)} settings={data} />
      <ProviderAccountsList method="yookassa" refreshKey={refreshKey} />
    </div>
  );
}

/** The Crypto Pay app, loaded apart like the other providers. */
function CryptopaySettingsSection({ refreshKey }: { refreshKey: number }) {
  const { _ } = useLingui();
  const { data, loadState } = useAdminResource(loadCryptopaySettings, refreshKey);
  if (!data) return loadState === 'failed' ? <AlertBox>{_('adminSettings.cryptopay.loadFailed')}</AlertBox> : <Loading />;
  return (
    <div className="space-y-4">
      <CryptopayPaymentSettingsForm key={JSON.stringify(data)} settings={data} />
      <ProviderAccountsList method="cryptopay" refreshKey={refreshKey} />
    </div>
  );
}

/** The crypto payment settings (BTCPay Server), loaded apart like the card ones. */
function CryptoPaymentSettingsSection({ refreshKey }: { refreshKey: number }) {
  const { _ } = useLingui();
  const { data, loadState } = useAdminResource(loadCryptoSettings, refreshKey);
  if (!data) return loadState === 'failed' ? <AlertBox>{_('adminSettings.crypto.loadFailed')}</AlertBox> : <Loading />;
  return (
    <div className="space-y-4">
      <CryptoPaymentSettingsForm key={JSON.stringify(data)} settings={data} />
      <ProviderAccountsList method="crypto" refreshKey={refreshKey} />
    </div>
  );
}

/** The card payment settings, loaded (and failing) apart from the general ones. */
function CardPaymentSettingsSection({ refreshKey }: { refreshKey: number }) {
  const { _ } = useLingui();
  const { data, loadState } = useAdminResource(loadCardSettings, refreshKey);
  const loadFailed = _('adminSettings.card.loadFailed');
  if (!data) return loadState === 'failed' ? <AlertBox>{loadFailed}</AlertBox> : <Loading />;
  return (
    <div aria-busy={loadState === 'loading'} className="space-y-4">
      {loadState === 'failed' && <AlertBox>{loadFailed}</AlertBox>}
      {/* Reloaded settings that differ from what the form started with replace its values. */}
      <CardPaymentSettingsForm key={JSON.stringify(data)} settings={data} />
      <ProviderAccountsList method="card" refreshKey={refreshKey} />
    </div>
  );
}

/**
 * App configuration in sections, each at its own path (`/admin/settings/<section>`, settings-sections.ts) with
 * a nav between them: general settings and the currency; site content; renewals and the balance; devices and
 * subscription links; sign-in, staff passkeys and data retention; then each payment provider.
 */
export function SettingsTab({ refreshKey }: { refreshKey: number }) {
  const section = settingsSectionAt(useLocation().pathname);
  return (
    <div className="space-y-6 lg:flex lg:gap-8 lg:space-y-0">
      <SettingsSectionNav selected={section} />
      <div className="min-w-0 flex-1">
        {section === 'payments' ? <PaymentSettings refreshKey={refreshKey} /> : <AppSettings section={section} refreshKey={refreshKey} />}
      </div>
    </div>
  );
}

/** The payment providers, each loaded (and failing) apart. */
function PaymentSettings({ refreshKey }: { refreshKey: number }) {
  return (
    <div className="space-y-6">
      <CardPaymentSettingsSection refreshKey={refreshKey} />
      <YookassaSettingsSection refreshKey={refreshKey} />
      <CryptoPaymentSettingsSection refreshKey={refreshKey} />
      <CryptopaySettingsSection refreshKey={refreshKey} />
    </div>
  );
}

/** A section of the app's own settings (GET /api/admin/settings): the forms of `section`. */
function AppSettings({ section, refreshKey }: { section: Exclude<SettingsSectionId, 'payments'>; refreshKey: number }) {
  const { _ } = useLingui();
  const { data, loadState } = useAdminResource(loadSettingsData, refreshKey);
  const { user } = useAuth();
  const loadFailed = _('adminSettings.loadFailed');

  if (loadState === 'failed' && !data) return <AlertBox>{loadFailed}</AlertBox>;
  if (!data) return <Loading />;

  return (
    <div className="space-y-6" aria-busy={loadState === 'loading'}>
      {loadState === 'failed' && <AlertBox>{loadFailed}</AlertBox>}
      {section === 'general' && (
        <>
          <GeneralSettingsForm
            // Reloaded settings that differ from what the form started with replace its values.
            key={JSON.stringify(data.settings)}
            settings={data.settings}
            plans={data.plans}
          />
          <TrialPromiseForm key={String(data.settings.trialPromise)} settings={data.settings} />
          <CurrencySettingsForm key={data.settings.currency} settings={data.settings} />
        </>
      )}
      {section === 'site' && (
        <SiteContentSettingsForm
          key={`${data.settings.locationsClaim}:${data.settings.protectionFeatures}:${JSON.stringify(data.settings.siteContentTranslations)}`}
          settings={data.settings}
        />
      )}
      {section === 'billing' && (
        <>
          <RenewalSettingsForm
            key={`${data.settings.renewalGraceDays}:${data.settings.renewalReminders}:${data.settings.planChangeDowngrade}`}
            settings={data.settings}
          />
          <WalletSettingsForm key={`${data.settings.currency}:${JSON.stringify(data.settings.walletTopUps)}`} settings={data.settings} />
        </>
      )}
      {section === 'accounts' && (
        <>
          <DeviceSettingsForm key={`${data.settings.devicelessClients}:${data.settings.devicelessWindowHours}`} settings={data.settings} />
          <SubscriptionHeadersForm key={JSON.stringify(data.settings.subscriptionHeaders)} settings={data.settings} />
          {/* The admin works on the site's own address (PUBLIC_URL): links are issued there until a spare domain is listed. */}
          <SubscriptionDomainsForm
            key={JSON.stringify(data.settings.subscriptionDomains)}
            settings={data.settings}
            publicHost={typeof window === 'undefined' ? '' : window.location.host}
          />
        </>
      )}
      {section === 'security' && (
        <>
          <RetentionSettingsForm key={`${data.settings.retentionDays}:${data.settings.auditRetentionDays}`} settings={data.settings} />
          <SignInLimitsSettingsForm key={JSON.stringify(data.settings.signInLimits)} settings={data.settings} />
          {/* Requiring passkeys guards the staff: the owner's, as roles are (lib/staff-policy.ts). */}
          {can(user?.role, 'staff.manage') && (
            <StaffPasskeySettingsForm key={`${data.settings.staffPasskeysRequired}:${data.settings.refundStepUpAbove}`} settings={data.settings} />
          )}
        </>
      )}
    </div>
  );
}
