import { z } from 'zod';
import { LOCALES } from './locales.js';

/** A locale as the API takes it: one of LOCALES ('zh' is taken for 'zh-CN'). */
export const LocaleSchema = z
  .string()
  .trim()
  .transform((value) => (value.toLowerCase() === 'zh' || value.toLowerCase() === 'zh-cn' ? 'zh-CN' : value.toLowerCase()))
  .pipe(z.enum(LOCALES, { error: `The language is one of ${LOCALES.join(', ')}` }));
