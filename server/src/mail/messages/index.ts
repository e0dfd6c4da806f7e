import { createTranslator } from '../../lib/message-catalogue.js';
import type { Locale } from '../../../../shared/locales.js';
import { en, type EmailCatalogue, type EmailMessageKey } from './en.js';
import { fa } from './fa.js';
import { ru } from './ru.js';
import { zhCN } from './zh-CN.js';

/** Every language's e-mail texts (each has exactly the English keys). */
export const EMAIL_CATALOGUES: Readonly<Record<Locale, EmailCatalogue>> = { en, ru, fa, 'zh-CN': zhCN };
/** An e-mail text in `locale`, its ICU placeholders and plurals filled in. */
export const emailText = createTranslator<EmailMessageKey>(EMAIL_CATALOGUES);

export type { EmailMessageKey } from './en.js';
