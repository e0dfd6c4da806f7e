import type { Locale } from '../../../../../shared/locales.js';
import { createTranslator } from '../../../lib/message-catalogue.js';
import { en, type BotCatalogue, type BotMessageKey } from './en.js';
import { fa } from './fa.js';
import { ru } from './ru.js';
import { zhCN } from './zh-CN.js';

/** Every language's bot texts (each has exactly the English keys). */
export const BOT_CATALOGUES: Readonly<Record<Locale, BotCatalogue>> = { en, ru, fa, 'zh-CN': zhCN };
/** A bot text in `locale`, its ICU placeholders and plurals filled in. */
export const botText = createTranslator<BotMessageKey>(BOT_CATALOGUES);

export type { BotMessageKey } from './en.js';
