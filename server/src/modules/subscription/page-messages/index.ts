import { createTranslator } from '../../../lib/message-catalogue.js';
import type { Locale } from '../../../../../shared/locales.js';
import { en, type PageCatalogue, type PageMessageKey } from './en.js';
import { fa } from './fa.js';
import { ru } from './ru.js';
import { zhCN } from './zh-CN.js';

export const PAGE_CATALOGUES: Readonly<Record<Locale, PageCatalogue>> = { en, ru, fa, 'zh-CN': zhCN };
/** A text of the `/sub` page in `locale`, its ICU placeholders and plurals filled in. */
export const pageText = createTranslator<PageMessageKey>(PAGE_CATALOGUES);

export type { PageMessageKey } from './en.js';
