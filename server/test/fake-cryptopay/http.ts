/** HTTP plumbing of the fake: answers, Crypto Pay's envelope, reading requests. */
import { json, type HttpAnswer } from '../fake-http.js';

export { header, html, json, pageNotFound, readBody, redirect, safeDecode, type HttpAnswer } from '../fake-http.js';

/** `{ ok: true, result }`, always with 200. */
export const okAnswer = (result: unknown): HttpAnswer => json(200, { ok: true, result });

/** An error in Crypto Pay's shape. The HTTP status is always the error's own code (400 with 400, 500 with 500). */
export interface CryptopayErrorBody {
  code: number;
  name: string;
}

/** An error a method throws; answered as `{ ok: false, error: { code, name } }` with HTTP status `code`. */
export class CryptopayApiError extends Error {
  constructor(
    readonly code: number,
    readonly errorName: string,
  ) {
    super(`${code} ${errorName}`);
    this.name = 'CryptopayApiError';
  }

  answer(): HttpAnswer {
    return errorAnswer({ code: this.code, name: this.errorName });
  }
}

export const errorAnswer = (error: CryptopayErrorBody): HttpAnswer => json(error.code, { ok: false, error: { code: error.code, name: error.name } });

export const badRequest = (name: string): CryptopayApiError => new CryptopayApiError(400, name);
