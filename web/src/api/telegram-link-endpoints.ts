import type { TelegramLinkStatus, TelegramLinkUrl, UpdateTelegramPreferencesBody } from '../../../shared/telegram.js';
import { apiClient } from './index';

/** The customer's Telegram: the store's bot and whom they are linked to, a one-time link to link, unlinking, their choices once linked. */
export const telegramLinkApi = {
  status: (signal?: AbortSignal) => apiClient.request<TelegramLinkStatus>('GET', '/api/me/telegram', { signal }),
  createLink: () => apiClient.request<TelegramLinkUrl>('POST', '/api/me/telegram-link'),
  unlink: () => apiClient.request<void>('DELETE', '/api/me/telegram'),
  updatePreferences: (changes: UpdateTelegramPreferencesBody) =>
    apiClient.request<TelegramLinkStatus>('PATCH', '/api/me/telegram/preferences', { body: changes }),
};
