import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, TEST_DATABASES, type TestDatabase } from '../../../test/databases.js';
import { createPlansRepo } from '../../modules/plans/plans.repo.js';
import * as planTranslations from './024-plan-translations.js';

const GB = 1024 ** 3;

describe.each(TEST_DATABASES)('migration 024-plan-translations on an install seeded before it (%s)', (kind) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await createTestDatabase(kind);
    await planTranslations.down(database.db); // back to plans without translations
  });
  afterEach(async () => {
    await database.destroy();
  });

  /** A plan as the seed of before wrote it (or as the operator changed it). */
  async function plan(name: string, tier: string | null, features: string[]): Promise<string> {
    const id = randomUUID();
    const now = new Date();
    await database.db('plans').insert({
      id, name, days: 30, data_limit: 300 * GB, price: 1399, locations: 'all', status: 'active', metadata: '{}',
      tier, features: JSON.stringify(features), created_at: now, updated_at: now,
    });
    return id;
  }

  const seededPlus = ['300 GB of data every month', 'Servers in every location', 'Unlimited devices on one subscription link', 'Open-source apps for Windows, macOS, Linux, Android and iOS', 'Priority e-mail support'];

  it('translates the seeded plans whose English is still the seed’s, and no other', async () => {
    const seeded = await plan('Plus 1 Month', 'Plus', seededPlus);
    const seededBasic = await plan('Basic 2 Years', 'Basic', ['2,400 GB of data for the 2 years', 'Servers in every location', 'Unlimited devices on one subscription link', 'Open-source apps for Windows, macOS, Linux, Android and iOS', 'E-mail support']);
    const renamed = await plan('Plus Monthly', 'Plus', seededPlus);
    const redescribed = await plan('Plus 1 Month', 'Plus', ['500 GB of data every month']);
    const retiered = await plan('Plus 1 Month', 'Gold', seededPlus);
    const own = await plan('Family', null, ['Five people']);

    await planTranslations.up(database.db);

    const repo = createPlansRepo(database.db);
    const translationsOf = async (id: string) => (await repo.findById(id))!.translations;
    expect(await translationsOf(seeded)).toEqual({
      ru: { name: 'Плюс 1 месяц', tier: 'Плюс', features: ['300 ГБ трафика в месяц', 'Серверы во всех локациях', 'Сколько угодно устройств по одной ссылке подписки', 'Приложения с открытым кодом для Windows, macOS, Linux, Android и iOS', 'Приоритетная поддержка по e-mail'] },
      fa: { name: 'پلاس ۱ ماهه', tier: 'پلاس', features: ['۳۰۰ گیگابایت داده در ماه', 'سرور در همهٔ موقعیت‌ها', 'دستگاه‌های نامحدود با یک لینک اشتراک', 'برنامه‌های متن‌باز برای Windows، macOS، Linux، Android و iOS', 'پشتیبانی ایمیلی با اولویت'] },
      'zh-CN': { name: '高级版 1 个月', tier: '高级版', features: ['每月 300 GB 流量', '可使用所有地区的服务器', '一个订阅链接，设备数量不限', '适用于 Windows、macOS、Linux、Android 和 iOS 的开源应用', '优先邮件支持'] },
    });
    expect((await translationsOf(seededBasic)).ru).toMatchObject({ name: 'Базовый 2 года', features: expect.arrayContaining(['2\u00a0400 ГБ трафика на 2 года', 'Поддержка по e-mail']) });
    expect((await translationsOf(seededBasic)).fa?.features?.[0]).toBe('۲٬۴۰۰ گیگابایت داده برای ۲ سال');
    for (const id of [renamed, redescribed, retiered, own]) expect(await translationsOf(id)).toEqual({});
  });

  it('gives a plan made after it no translations until the operator writes some', async () => {
    await planTranslations.up(database.db);
    const id = await plan('Family', null, ['Five people']);
    const row = await database.db('plans').where({ id }).first();
    expect(JSON.parse(row.translations)).toEqual({});
  });
});
