import type { FastifyInstance } from 'fastify';
import { UpdateCardPaymentBody, UpdateCryptoPaymentBody, UpdateCryptopayPaymentBody, UpdateYookassaPaymentBody } from '../shared/billing-schemas.js';
import { DEFAULT_BRAND_NAME } from '../shared/config.js';
import { PlanBody } from '../shared/plans.js';
import { CreateServerBody } from '../shared/servers.js';
import { DEFAULT_PLANS } from '../server/src/modules/plans/plans.seed.js';
import { TRIAL_PLAN_TEXTS } from '../server/src/modules/plans/seed-plan-texts.js';
import type { Actor } from '../server/src/modules/users/users.service.js';

const MB = 1024 ** 2;

/** The keys the fake Stripe is started with, and saved as the site's card settings. */
export const DEMO_STRIPE_KEYS = {
  publishableKey: 'pk_test_demoPublishableKey0000',
  secretKey: 'sk_test_demoSecretKey0000000000',
  webhookSecret: 'whsec_demoWebhookSecret000000000',
};

/** The fake BTCPay Server's store and keys, saved as the site's crypto payment settings. */
export const DEMO_BTCPAY = { apiKey: 'demo_btcpay_api_key_0000', storeId: 'DemoStore1', webhookSecret: 'demo_btcpay_webhook_secret_0000' };
/** The fake YooKassa's shop (offered once the store sells in roubles) and the fake Crypto Pay's app. */
export const DEMO_YOOKASSA = { shopId: '100500', secretKey: 'test_demoYooKassaSecretKey0000' };
export const DEMO_CRYPTOPAY = { apiToken: '10101:AAdemoCryptoPayToken0000000000000', network: 'testnet' as const };

/**
 * The brand and the support address the demo saves, as an operator does first: without them the admin's
 * setup checklist stays unfinished and the public pages tell customers to write to support@localhost.
 */
export const DEMO_BRAND = { brandName: DEFAULT_BRAND_NAME, supportEmail: 'support@demo.local' };

/** The trial (not listed on the pricing page), then the plans of a fresh install: the spec's pricing page. */
const DEMO_PLANS: PlanBody[] = [
  PlanBody.parse({
    name: TRIAL_PLAN_TEXTS.text.name,
    days: 0.125,
    dataLimitBytes: 300 * MB,
    price: 0,
    isTrial: true,
    locations: 'all',
    public: false,
    features: TRIAL_PLAN_TEXTS.text.features,
    translations: TRIAL_PLAN_TEXTS.translations,
  }),
  ...DEFAULT_PLANS,
];

export interface DemoFakes {
  /** The fake panel: its address and admin login. */
  panel: { url: string; admin: { username: string; password: string } };
  btcpayUrl: string;
  adminEmail: string;
  /** The fake YooKassa and Crypto Pay run too (the app reaches them through YOOKASSA_API_URL and CRYPTOPAY_API_URL). */
  localProviders?: boolean;
}

/**
 * Seeds the demo through the app's own services, as an admin would through the admin panel: everything
 * the setup checklist asks for (brand, support address, a server, a plan on sale), card and crypto payments.
 */
export async function seedDemo(app: FastifyInstance, fakes: DemoFakes): Promise<void> {
  const { services } = app;
  // The admin's profile exists from the start (sign-in would also make it admin, through ADMIN_EMAILS).
  const { user: admin } = await services.users.setRoleByEmail({ id: null, email: 'demo' }, fakes.adminEmail, 'admin');
  const actor: Actor = { id: admin.id, email: admin.email, ip: null };

  // The fake panel's admin login; service 1 is "Germany" on the fake (2 is "Netherlands"). The internal
  // name is what the admin sees; customers see the public name.
  await services.servers.createServer(
    actor,
    CreateServerBody.parse({
      kind: 'marzneshin',
      name: 'Demo server (fake panel)',
      publicName: 'Germany',
      url: fakes.panel.url,
      username: fakes.panel.admin.username,
      password: fakes.panel.admin.password,
      serviceId: '1',
      locations: 'all',
    }),
  );

  const created = [];
  for (const plan of DEMO_PLANS) created.push(await services.plans.createPlan(actor, plan)); // in this order
  const trial = created.find((plan) => plan.isTrial);
  await services.settings.updateSettings({ ...DEMO_BRAND, ...(trial ? { trialPlanId: trial.id } : {}) }, new Date());
  await services.card.updateSettings(UpdateCardPaymentBody.parse({ enabled: true, ...DEMO_STRIPE_KEYS }), new Date());
  await services.crypto.updateSettings(UpdateCryptoPaymentBody.parse({ enabled: true, serverUrl: fakes.btcpayUrl, ...DEMO_BTCPAY }), new Date());
  if (fakes.localProviders) {
    await services.yookassa.updateSettings(UpdateYookassaPaymentBody.parse({ enabled: true, ...DEMO_YOOKASSA }), new Date());
    await services.cryptopay.updateSettings(UpdateCryptopayPaymentBody.parse({ enabled: true, ...DEMO_CRYPTOPAY }), new Date());
  }
}
