// ---- the methods ----
import type { Socket } from 'node:net';
import type { HttpAnswer } from '../fake-http.js';
import { TelegramError, TEXT } from './errors.js';
import { errorAnswer, okAnswer } from './http.js';
import { createInvoiceLink, sendInvoice } from './invoices.js';
import { commandsKey, getChatMember, menuButtonChat, readMenuButton, setMyCommands } from './members.js';
import { editMessageText, sendMessage } from './messages.js';
import { type Params, recordedParams } from './params.js';
import { answerCallbackQuery, answerPreCheckoutQuery, editUserStarSubscription, getStarTransactions, refundStarPayment } from './payments.js';
import { sendPhoto } from './photos.js';
import { botUser, type MethodHandler, ok, type World } from './state.js';
import { authorize } from './tokens.js';
import { getUpdates } from './updates.js';
import { getWebhookInfo, setWebhook } from './webhooks.js';

const METHODS = new Map<string, MethodHandler>([
  [
    'getme',
    ({ bot }) =>
      ok({
        ...botUser(bot),
        can_join_groups: bot.info.can_join_groups ?? true,
        can_read_all_group_messages: bot.info.can_read_all_group_messages ?? false,
        supports_inline_queries: bot.info.supports_inline_queries ?? false,
        supports_guest_queries: false,
        can_connect_to_business: false,
        has_main_web_app: false,
        has_topics_enabled: false,
        allows_users_to_create_topics: false,
        can_manage_bots: false,
      }),
  ],
  ['logout', () => ok(true)],
  ['setwebhook', setWebhook],
  ['deletewebhook', setWebhook],
  ['getwebhookinfo', getWebhookInfo],
  ['getupdates', getUpdates],
  ['sendmessage', sendMessage],
  ['editmessagetext', editMessageText],
  ['sendphoto', sendPhoto],
  ['answercallbackquery', answerCallbackQuery],
  ['setmycommands', setMyCommands],
  ['getmycommands', (call) => ok(call.bot.commands.get(commandsKey(call.params)) ?? [])],
  [
    'deletemycommands',
    (call) => {
      call.bot.commands.delete(commandsKey(call.params));
      return ok(true);
    },
  ],
  [
    'setchatmenubutton',
    (call) => {
      const button = readMenuButton(call.params);
      call.bot.menuButtons.set(menuButtonChat(call.params), button);
      return ok(true);
    },
  ],
  [
    'getchatmenubutton',
    (call) => {
      const chat = menuButtonChat(call.params);
      return ok(call.bot.menuButtons.get(chat) ?? call.bot.menuButtons.get('') ?? { type: 'commands' });
    },
  ],
  ['getchatmember', getChatMember],
  ['sendinvoice', sendInvoice],
  ['createinvoicelink', createInvoiceLink],
  ['answerprecheckoutquery', answerPreCheckoutQuery],
  ['refundstarpayment', refundStarPayment],
  ['getstartransactions', getStarTransactions],
  ['edituserstarsubscription', editUserStarSubscription],
]);

interface IncomingCall {
  token: string;
  method: string;
  params: Params;
  socket: Socket | null;
  viaWebhookReply?: boolean;
}

/** Records the call, then answers it as the server does: the token, an injected failure, the method. */
export async function callMethod(world: World, incoming: IncomingCall): Promise<HttpAnswer> {
  const now = Date.now();
  const recorded = recordedParams(incoming.params);
  world.calls.push({
    token: incoming.token,
    method: incoming.method,
    params: recorded,
    at: now,
    ...(incoming.viaWebhookReply ? { viaWebhookReply: true } : {}),
  });
  try {
    const bot = authorize(world, incoming.token);
    const name = incoming.method.toLowerCase();
    const failure = world.failures.findIndex((entry) => entry.method === name);
    if (failure !== -1) {
      const { error_code, description, parameters } = world.failures.splice(failure, 1)[0]!.failure;
      throw new TelegramError(error_code, description, parameters);
    }
    const handler = METHODS.get(name);
    if (!handler) throw new TelegramError(404, TEXT.methodNotFound);
    const { result, description } = await handler({ world, bot, params: incoming.params, recorded, method: incoming.method, now, socket: incoming.socket });
    return okAnswer(result, description);
  } catch (error) {
    if (error instanceof TelegramError) return errorAnswer(error);
    throw error;
  }
}
