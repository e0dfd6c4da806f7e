// ---- reading a request ----
import type { IncomingMessage } from 'node:http';
import { readBytes } from '../fake-http.js';
import { TelegramError } from './errors.js';
import type { FakeTelegramFile } from './handle-types.js';

const MAX_BODY_BYTES = 50 * 1024 * 1024;

/** A multipart file part (kept whole: a photo's size is read from it). */
export class UploadedFile {
  constructor(
    readonly filename: string,
    readonly contentType: string,
    readonly data: Buffer,
  ) {}

  describe(): FakeTelegramFile {
    return { filename: this.filename, contentType: this.contentType, size: this.data.length };
  }
}

export type Params = Record<string, unknown>;

/** The request body (a photo may be large: Telegram takes uploads of up to 50 MB), or null when it is over that. */
export const readUpload = (req: IncomingMessage): Promise<Buffer | null> => readBytes(req, MAX_BODY_BYTES);

/** The query string's arguments, then the body's (td's HttpReader reads both, whatever the verb). */
export function parseParams(url: URL, body: Buffer, contentType: string | null): Params {
  const params: Params = Object.fromEntries(url.searchParams);
  if (body.length === 0) return params;
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'application/json') return { ...params, ...parseJsonObject(body) };
  if (type === 'application/x-www-form-urlencoded') return { ...params, ...Object.fromEntries(new URLSearchParams(body.toString('utf8'))) };
  if (type === 'multipart/form-data') return { ...params, ...parseMultipart(body, contentType ?? '') };
  return params;
}

function parseJsonObject(body: Buffer): Params {
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch {
    value = null;
  }
  // td/net/HttpReader.cpp (parse_json_parameters) answers a body that is not an object so; its finer messages
  // for a broken object ("can't parse parameter value: …") are not reproduced.
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new TelegramError(400, 'Bad Request: JSON object expected');
  return value as Params;
}

const CRLF = Buffer.from('\r\n');

/**
 * multipart/form-data, read as leniently as td's HttpReader: header names in any case with or without a space after
 * the colon, quoted or bare parameters (grammY writes `content-disposition:form-data;name="x";filename=photo.jpg`).
 */
function parseMultipart(body: Buffer, contentType: string): Params {
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  const malformed = () => new TelegramError(400, 'Bad Request'); // HttpReader's answer to a body it cannot split
  if (!boundary) throw malformed();
  const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  const separator = Buffer.concat([CRLF, delimiter]);
  const params: Params = {};
  let start = body.indexOf(delimiter);
  if (start === -1) throw malformed();
  for (;;) {
    let cursor = start + delimiter.length;
    if (body.toString('latin1', cursor, cursor + 2) === '--') return params;
    if (body.toString('latin1', cursor, cursor + 2) === '\r\n') cursor += 2;
    const end = body.indexOf(separator, cursor);
    if (end === -1) throw malformed();
    addPart(params, body.subarray(cursor, end));
    start = end + CRLF.length;
  }
}

function addPart(params: Params, part: Buffer): void {
  const headEnd = part.indexOf('\r\n\r\n');
  const head = headEnd === -1 ? part.toString('utf8') : part.toString('utf8', 0, headEnd);
  const data = headEnd === -1 ? Buffer.alloc(0) : part.subarray(headEnd + 4);
  const headers = new Map<string, string>();
  for (const line of head.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  const disposition = new Map<string, string>();
  for (const match of (headers.get('content-disposition') ?? '').matchAll(/;\s*([\w*-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/g)) {
    disposition.set(match[1]!.toLowerCase(), (match[2] ?? match[3] ?? '').trim());
  }
  const name = disposition.get('name');
  if (name === undefined) return;
  const filename = disposition.get('filename');
  params[name] = filename === undefined ? data.toString('utf8') : new UploadedFile(filename, headers.get('content-type') ?? 'application/octet-stream', data);
}

/** The arguments as `calls` keeps them: file parts described, an `attach://name` argument replaced by its part. */
export function recordedParams(params: Params): Params {
  const recorded: Params = {};
  for (const [name, value] of Object.entries(params)) recorded[name] = value instanceof UploadedFile ? value.describe() : value;
  for (const [name, value] of Object.entries(params)) {
    if (typeof value !== 'string' || !value.startsWith('attach://')) continue;
    const part = params[value.slice('attach://'.length)];
    if (!(part instanceof UploadedFile)) continue;
    recorded[name] = part.describe();
    delete recorded[value.slice('attach://'.length)];
  }
  return recorded;
}
