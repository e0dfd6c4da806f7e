// ---- photos ----
import { argText } from './args.js';
import { resolveChat } from './chats.js';
import { badRequest } from './errors.js';
import { checkSendAllowed } from './flood.js';
import { checkFormattedText, entitiesOf, inlineMarkup, MAX_CAPTION, readReplyMarkup, recordSent, storeMessage } from './messages.js';
import { type Params, UploadedFile } from './params.js';
import { type BotState, type MethodCall, type MethodResult, ok, randomId } from './state.js';

/** Width and height of a PNG, GIF or JPEG, or null for anything Telegram could not process as a photo. */
function imageSize(data: Buffer): { width: number; height: number } | null {
  if (data.length >= 24 && data.readUInt32BE(0) === 0x89504e47 && data.toString('latin1', 12, 16) === 'IHDR') {
    return { width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
  }
  if (data.length >= 10 && data.toString('latin1', 0, 4) === 'GIF8') return { width: data.readUInt16LE(6), height: data.readUInt16LE(8) };
  if (data.length < 4 || data[0] !== 0xff || data[1] !== 0xd8) return null;
  for (let at = 2; at + 9 < data.length;) {
    if (data[at] !== 0xff) return null;
    const marker = data[at + 1]!;
    if (marker === 0xff || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      at += marker === 0xff ? 1 : 2; // fill byte, or a marker without a length
      continue;
    }
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker))
      return { width: data.readUInt16BE(at + 7), height: data.readUInt16BE(at + 5) };
    at += 2 + data.readUInt16BE(at + 2);
  }
  return null;
}

/** Client::get_input_file (Client.cpp:10031-10055): an `attach://` argument names a part; other text is a file_id or URL; else the part named so. */
function inputFile(params: Params, name: string): UploadedFile | string | null {
  const text = argText(params, name);
  if (text.startsWith('attach://')) {
    const part = params[text.slice('attach://'.length)];
    return part instanceof UploadedFile ? part : null;
  }
  if (text !== '') return text;
  const part = params[name];
  return part instanceof UploadedFile ? part : null;
}

/** The PhotoSize the bot gets back; TDLib and Telegram refuse what they cannot use (their words, as the Bot API answers them). */
function photoSizeOf(bot: BotState, photo: UploadedFile | string): Record<string, unknown> {
  if (typeof photo === 'string') {
    const known = bot.photos.get(photo);
    if (known) return known;
    if (!/^https?:\/\//i.test(photo)) throw badRequest('wrong file identifier/HTTP URL specified');
  } else if (photo.data.length === 0) {
    throw badRequest('file must be non-empty');
  }
  const size = typeof photo === 'string' ? { width: 1280, height: 720 } : imageSize(photo.data);
  if (!size) throw badRequest('IMAGE_PROCESS_FAILED');
  const fileId = `AgACAgIAAxkDAAI${randomId(48)}`;
  const photoSize = { file_id: fileId, file_unique_id: `AQAD${randomId(9)}`, file_size: typeof photo === 'string' ? 65_536 : photo.data.length, ...size };
  bot.photos.set(fileId, photoSize);
  return photoSize;
}

export function sendPhoto(call: MethodCall): MethodResult {
  const { params } = call;
  const photo = inputFile(params, 'photo');
  if (photo === null) throw badRequest('There is no photo in the request'); // Client.cpp:12958
  const caption = argText(params, 'caption');
  checkFormattedText(params, caption, 'parse_mode');
  const replyMarkup = readReplyMarkup(params);
  const chat = resolveChat(call.world, params);
  if (caption.length > MAX_CAPTION) throw badRequest('message caption is too long');
  const photoSize = photoSizeOf(call.bot, photo);
  checkSendAllowed(call, chat);
  const content = { photo: [photoSize], ...(caption === '' ? {} : { caption, ...entitiesOf(params, 'caption_entities') }), ...inlineMarkup(replyMarkup) };
  const message = storeMessage(call, chat, 'photo', content);
  recordSent(call, chat.id, { ...(caption === '' ? {} : { caption }), replyMarkup, messageId: message.message_id as number });
  return ok(message);
}
